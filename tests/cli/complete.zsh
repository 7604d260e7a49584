# SPDX-License-Identifier: GPL-2.0-or-later
# zsh -f complete.zsh COMPDIR BINDIR LINE: the candidates zsh's completion system offers
# for LINE typed at an interactive zsh (in a zpty) followed by TAB, one a line, with the
# part compset moved to IPREFIX ("--tsv=") in front.  compadd is wrapped to print what
# it adds; comppostfuncs ends the shell once the completion ran.  Exit 77: no zpty;
# 2: the shell did not answer.  (tests/cli/completion-zsh.sh)
zmodload zsh/zpty || exit 77
zpty z env PATH="$2:$PATH" zsh -f -i
zpty -w z "PROMPT='' RPROMPT=''; fpath=($1 \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w z 'compadd() {
	local -a __h; local __x
	if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi
	builtin compadd -A __h "$@"
	for __x in $__h; do print -r -- "CAND:$IPREFIX$__x"; done
}'
zpty -w z '_t_done() { print -r -- T_""DONE; exit; }; comppostfuncs=(_t_done)'
zpty -w z "bindkey '^I' complete-word; zstyle ':completion:*' insert-tab false; print T_''READY"
zpty -r z out '*T_READY*' || exit 2
zpty -w -n z "$3"$'\t'
zpty -r z out '*T_DONE*' || exit 2
for line in ${(f)out}; do
	line=${line//$'\r'/}
	[[ -n $DEBUG ]] && print -r -- "RAW:${(q)line}"
	[[ $line == *CAND:* ]] && print -r -- ${line##*CAND:}
done
zpty -d z
