# CGCTL_CHECK_CFLAG(FLAG, ACTION-IF-OK)
# Try to compile an empty program with FLAG (and -Werror) added to CFLAGS.
AC_DEFUN([CGCTL_CHECK_CFLAG], [
	AS_VAR_PUSHDEF([cache], [cgctl_cv_cflag_$1])
	AC_CACHE_CHECK([whether $CC accepts $1], [cache], [
		saved_CFLAGS=$CFLAGS
		CFLAGS="$CFLAGS -Werror $1"
		AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
				  [AS_VAR_SET([cache], [yes])], [AS_VAR_SET([cache], [no])])
		CFLAGS=$saved_CFLAGS
	])
	AS_VAR_IF([cache], [yes], [$2])
	AS_VAR_POPDEF([cache])
])
