# fish completion for cgctl(1)
#
# Commands, verbs, the options of each and what their arguments are come from cgctl's
# own --help, read once when fish loads this file: the completion follows the cgctl it
# completes and never lists an option that cgctl does not have.  Cgroup paths are walked
# in every mounted hierarchy (below --root DIR when given, whose cgctl-mounts lists
# them), PIDs come from /proc, control files from the cgroup named before them.

# The words before the cursor that are neither options nor an option's value.
function __cgctl_args
    set -l words (commandline -opc)
    set -e words[1]
    set -l skip 0
    for w in $words
        if test $skip = 1
            set skip 0
            continue
        end
        if contains -- $w $__cgctl_valued
            set skip 1
            continue
        end
        string match -q -- '-?*' $w; and continue
        echo $w
    end
end

# __cgctl_at CMD [VERB]: the command (and verb) before the cursor are these
function __cgctl_at
    set -l a (__cgctl_args)
    test (count $a) -ge (count $argv); or return 1
    for i in (seq (count $argv))
        test "$a[$i]" = "$argv[$i]"; or return 1
    end
end

function __cgctl_needs_command
    test (count (__cgctl_args)) -eq 0
end

# __cgctl_needs_verb CMD: CMD has verbs and none is given yet
function __cgctl_needs_verb
    set -l a (__cgctl_args)
    test (count $a) -eq 1 -a "$a[1]" = "$argv[1]"
end

# --root DIR of the command line, if any
function __cgctl_root
    set -l words (commandline -opc)
    for i in (seq (count $words))
        if test "$words[$i]" = --root
            set -l j (math $i + 1)
            test $j -le (count $words); and echo $words[$j]
            return
        end
        string match -q -- '--root=*' $words[$i]; and string replace -- '--root=' '' $words[$i]
    end
end

# The mount point of every cgroup hierarchy, prefixed by --root's DIR.
function __cgctl_mounts
    set -l root (__cgctl_root)
    if test -n "$root"
        test -r $root/cgctl-mounts; or return
        string match -rv '^#' <$root/cgctl-mounts | while read -l v m c
            echo $root$m
        end
        return
    end
    string match -r '^\S+ \S+ cgroup2? ' </proc/self/mounts | while read -l dev m rest
        echo $m
    end
end

# __cgctl_base MOUNT: where cgroup paths start in the hierarchy at MOUNT (as
# __cgctl_mounts prints it): MOUNT, or with --self on the line cgctl's own cgroup there
# (the paths are relative to it): the line of /proc/%self/cgroup (fish's, which cgctl
# inherits; with --root, DIR/proc/self/cgroup) for its first controller, "0::" for v2
function __cgctl_base
    contains -- --self (commandline -opc); or begin; echo $argv[1]; return; end
    set -l root (__cgctl_root)
    set -l f /proc/$fish_pid/cgroup
    set -l ctrl
    if test -n "$root"
        set f $root/proc/self/cgroup
        string match -rv '^#' <$root/cgctl-mounts | while read -l v m c
            test "$root$m" = $argv[1]; and test $v = 1; and string split , -- $c
        end | read ctrl
    else
        string match -r '^\S+ \S+ cgroup ' </proc/self/mounts | while read -l dev m t opts rest
            test $m = $argv[1]; and string split , -- $opts |
                string match -rv '^(rw|ro|nosuid|nodev|noexec|relatime|name=.*)$'
        end | read ctrl
    end
    set -l own
    for line in (cat $f 2>/dev/null)
        if test -z "$ctrl"
            string match -q '0::*' -- $line; and set own (string replace '0::' '' -- $line); and break
        else if string match -q -- "*,$ctrl,*" ,(string split -m 2 : -- $line)[2],
            set own (string split -m 2 : -- $line)[3]
            break
        end
    end
    echo $argv[1](string replace -r '/$' '' -- $own)
end

# Controller names of the mounted hierarchies (for -c/--controllers).
function __cgctl_controllers
    set -l root (__cgctl_root)
    if test -n "$root"
        test -r $root/cgctl-mounts; and string match -rv '^#' <$root/cgctl-mounts |
            while read -l v m c
                string split , -- $c
            end | sort -u
        return
    end
    string match -r '^\S+ \S+ cgroup ' </proc/self/mounts | while read -l dev m t opts rest
        string split , -- $opts | string match -rv '^(rw|ro|nosuid|nodev|noexec|relatime|name=.*)$'
    end
    test -r /sys/fs/cgroup/cgroup.controllers; and string split ' ' -- (cat /sys/fs/cgroup/cgroup.controllers)
end

# Cgroup paths (hierarchy-absolute, "/a/b"; with --self relative to cgctl's own cgroup,
# "a/b") below the token being completed, from every hierarchy at once.
function __cgctl_cgroups
    set -l cur (commandline -ct)
    set -l rel (string replace -r '^/+' '' -- $cur)
    set -l dir (string replace -r '[^/]*$' '' -- $rel)
    set -l self (contains -- --self (commandline -opc); and echo 1)
    for m in (__cgctl_mounts)
        set -l base (__cgctl_base $m)
        for d in $base/$dir*/
            # cgctl refuses symbolic links in cgroupfs: do not offer them
            test -L (string replace -r '/$' '' -- $d); and continue
            set -l p (string replace -r '/$' '' -- (string replace -- $base '' $d))
            test -n "$self"; and set p (string replace -r '^/' '' -- $p)
            echo $p
        end
    end | sort -u
end

# Control files of the cgroup named first after the command (get, set).
function __cgctl_files
    set -l a (__cgctl_args)
    set -l path $a[2]
    test -n "$path"; or return
    set -l cur (commandline -ct)
    begin
        for m in (__cgctl_mounts)
            for f in (__cgctl_base $m)/$path/*
                test -f $f; and string replace -r '^.*/' '' -- $f
            end
        end
        # and the knob table (cgctl set --help "Knobs (FILE=):")
        __cgctl_at set; and cgctl set --help 2>/dev/null | string replace -rf '^Knobs \(FILE=\): ' '' | string split ,
    end | sort -u | while read -l f
        if string match -q -- '*=*' $cur; or __cgctl_at set
            echo $f=
        else
            echo $f
        end
    end
end

function __cgctl_pids
    set -l root (__cgctl_root)
    for p in (string match -r -- '.*/[0-9]+$' "$root"/proc/*)
        set -l comm
        test -r $p/comm; and read comm <$p/comm
        printf '%s\t%s\n' (string replace -r '^.*/' '' -- $p) "$comm"
    end
    printf '%s\t%s\n' - 'read PIDs from standard input'
end

# The verbs (with their summaries) of the command named after `help`
function __cgctl_help_verbs
    set -l a (__cgctl_args)
    __cgctl_section Verbs: (cgctl $a[2] --help 2>/dev/null) |
        string replace -rf '^\s+(\S+)\s+(.*)$' '$1\t$2'
end

# __cgctl_complete_args CONDITION USAGE-LINE: what the positional arguments are
function __cgctl_complete_args
    set -l cond $argv[1]
    set -l usage $argv[2]
    if string match -q -- '*PID*' $usage
        complete -c cgctl -n $cond -f -a '(__cgctl_pids)'
    end
    set -l n (count $argv[3..-1])
    if string match -q -- '*FILE*' $usage
        # the first argument is the cgroup, the rest its control files
        complete -c cgctl -n "$cond; and test (count (__cgctl_args)) -le $n" -f -a '(__cgctl_cgroups)' -d cgroup
        complete -c cgctl -n "$cond; and test (count (__cgctl_args)) -gt $n" -f -a '(__cgctl_files)'
    else if string match -q -- '*PATH*' $usage
        complete -c cgctl -n $cond -f -a '(__cgctl_cgroups)' -d cgroup
    end
    if string match -q -- '*SCENARIO*' $usage
        complete -c cgctl -n $cond -f -a '(cgctl validate --list 2>/dev/null | string replace -r "^(\S+)\s+" "\$1\t")'
    end
    if string match -q -- '*EXPERIMENT*' $usage
        complete -c cgctl -n $cond -f -a '(cgctl bench --list 2>/dev/null | string match -r "^\S.*" | string replace -r "^(\S+)\s+" "\$1\t")'
    end
    if string match -q -- '*COMMAND*' $usage
        complete -c cgctl -n "$cond; and test (count (__cgctl_args)) -eq 1" -f -a "$__cgctl_commands"
        # help COMMAND VERB: the command's verbs
        complete -c cgctl -n "$cond; and test (count (__cgctl_args)) -eq 2" -f -a '(__cgctl_help_verbs)'
    end
end

# __cgctl_options CONDITION HELP-LINES...: one `complete` per option line of a --help
function __cgctl_options
    set -l cond $argv[1]
    for line in $argv[2..-1]
        string match -rq -- '^\s+(?:-(?<s>\w), )?--(?<l>[a-z][a-z0-9-]*)(?:[ =](?<arg>[^ ]+))?\s+(?<d>.*)$' $line
        or continue
        set -l spec -c cgctl -n $cond -l $l -d $d
        test -n "$s"; and set -a spec -s $s
        if test -n "$arg"
            set -a __cgctl_valued --$l
            test -n "$s"; and set -a __cgctl_valued -$s
            switch $arg
                case FILE
                    set -a spec -r -F
                case DIR
                    set -a spec -r -x -a '(__fish_complete_directories)'
                case LIST
                    set -a spec -r -x -a '(__cgctl_controllers)'
                case COLUMNS
                    set -a spec -r -x -a "(__fish_complete_list , 'string split , -- $__cgctl_cols')"
                case TARGET
                    set -a spec -r -x -a 'host vm:6.1-v1 vm:6.1-v2 vm:6.12-v2 vm:6.12-systemd all'
                case '*|*'
                    set -a spec -r -x -a (string split '|' -- $arg | string join ' ')
                case '*'
                    set -a spec -r -x
            end
        end
        complete $spec
    end
end

# __cgctl_section NAME HELP-LINES...: the lines of a --help section ("Options:")
function __cgctl_section
    set -l on 0
    for line in $argv[2..-1]
        if string match -rq '^\S' -- $line
            test "$line" = "$argv[1]"; and set on 1; or set on 0
            continue
        end
        test $on = 1; and echo $line
    end
end

# __cgctl_load_command CONDITION WORDS...: options and arguments of `cgctl WORDS`
function __cgctl_load_command
    set -l cond $argv[1]
    set -l help (cgctl $argv[2..-1] --help 2>/dev/null)
    or return
    set -l verbs (__cgctl_section Verbs: $help)
    if test -n "$verbs"
        for v in $verbs
            string match -rq '^\s+(?<verb>\S+)\s+(?<summary>.*)$' -- $v; or continue
            complete -c cgctl -n "__cgctl_needs_verb $argv[2]" -f -a $verb -d $summary
            __cgctl_load_command "__cgctl_at $argv[2] $verb" $argv[2] $verb
        end
        return
    end
    # "Columns (-o):" a column a line ("  PID  process ID"), and "TSV tables:
    # moves,throttle" (--tsv=NAME)
    set -g __cgctl_cols (__cgctl_section 'Columns (-o):' $help |
        string match -r -g -- '^  (\S+)' | sort -u | string join ,)
    __cgctl_options $cond (__cgctl_section Options: $help)
    set -l tables (string match -r -- '^TSV tables: (.*)$' $help)[2]
    if test -n "$tables"
        set -a __cgctl_tables (string split , -- $tables)
        complete -c cgctl -n "$cond; and __cgctl_tsv_token" -f \
            -a (string split , -- $tables | string replace -r '^' -- '--tsv=' | string join ' ')
    end
    __cgctl_complete_args $cond (string replace -r '^Usage: \S+ ' '' -- $help[1]) $argv[2..-1]
end

# The word under the cursor is --tsv=...
function __cgctl_tsv_token
    string match -q -- '--tsv=*' (commandline -ct)
end

function __cgctl_load
    set -g __cgctl_valued
    set -g __cgctl_commands
    set -g __cgctl_tables
    command -q cgctl; or return
    set -l help (cgctl --help 2>/dev/null)
    or return
    complete -c cgctl -f
    __cgctl_options __cgctl_needs_command (__cgctl_section 'Global options:' $help)
    for line in (__cgctl_section Commands: $help)
        string match -rq '^\s+(?<cmd>\S+)\s+(?<summary>.*)$' -- $line; or continue
        set -a __cgctl_commands $cmd
        complete -c cgctl -n __cgctl_needs_command -a $cmd -d $summary
        __cgctl_load_command "__cgctl_at $cmd" $cmd
    end
    # before the command: every command's tables
    set -q __cgctl_tables[1]; and complete -c cgctl -n '__cgctl_needs_command; and __cgctl_tsv_token' \
        -f -a (string replace -r '^' -- '--tsv=' $__cgctl_tables | sort -u | string join ' ')
end

__cgctl_load
