# bash completion for nqueens                            -*- shell-script -*-
#
# Installed as share/bash-completion/completions/nqueens (loaded on demand
# by bash-completion), or source it from ~/.bashrc.  It completes the
# commands, each command's options, the engines each command accepts,
# kernel names, formats, styles, methods, and file names for --checkpoint
# and merge.  It needs nothing from bash-completion itself.
#
# The commands, options and engines are not written here: they come from
# the program being completed, `nqueens --completion [COMMAND]` (see
# programs/dispatch.c), which prints them from the tables its own parser and
# engine checks use.  So a new command, option or engine is completed by
# itself, and the completion cannot offer what the program refuses.

# What the program says about a command: its options ("--name", "--name="
# for one that takes a value, then its short form "-x" if it has one) and
# "engine NAME" for each engine it accepts.
_nqueens_spec()
{
    "$1" --completion "$2" </dev/null 2>/dev/null
}

# The kernels built in: "kernels: scalar, sse4, avx2, avx512 (this CPU: ...)".
_nqueens_kernels()
{
    local line
    line=$("$1" --version 2>/dev/null | sed -n 's/^kernels: \([^(]*\).*/\1/p')
    echo "${line//,/ }"
}

# The long name of an option as written in prev ("--engine", "-e", or a
# bundle "-qe" whose last letter takes the value), from the spec; empty if
# it is none or takes no value.
_nqueens_value_option()
{
    local spec=$1 prev=$2 long short
    [[ $prev == -[!-]* ]] && prev=-${prev: -1}
    while read -r long short; do
        [[ $long == --*= ]] || continue
        if [[ $prev == "${long%=}" || $prev == "$short" ]]; then
            echo "${long%=}"
            return
        fi
    done <<<"$spec"
}

# The values of a command's option, where they are a closed list; none
# for numbers and lists (the caller offers file names for --checkpoint).
_nqueens_values()
{
    local prog=$1 cmd=$2 option=$3 spec=$4
    case $option in
    --engine | --compare) sed -n 's/^engine //p' <<<"$spec" ;;
    --kernel) _nqueens_kernels "$prog" ;;
    --format)
        case $cmd in
        tree) echo "text dot svg json" ;;
        trace) echo "text json html" ;;
        *) echo "array grid dots seed unicode svg json" ;;
        esac
        ;;
    --style) echo "steps seed" ;;
    --method) echo "formula search" ;;
    esac
}

_nqueens()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=''
    local prog=${COMP_WORDS[0]} cmd='' spec='' option='' eq=''
    COMPREPLY=()

    # --opt=value: with '=' in COMP_WORDBREAKS (the default) the words are
    # "--opt" "=" "value"; without, one word "--opt=value".
    if ((COMP_CWORD >= 1)); then
        prev=${COMP_WORDS[COMP_CWORD - 1]}
    fi
    if [[ $prev == "=" ]] && ((COMP_CWORD >= 2)); then
        prev=${COMP_WORDS[COMP_CWORD - 2]}
    elif [[ $cur == "=" ]]; then
        prev=${COMP_WORDS[COMP_CWORD - 1]}
        cur=
    elif [[ $cur == --*=* ]]; then
        prev=${cur%%=*}
        eq=$prev=
        cur=${cur#*=}
    fi

    # Run the program being completed if it can be found, else nqueens.
    [[ $prog == */* && -x $prog ]] || type -P "$prog" >/dev/null 2>&1 ||
        prog=nqueens

    # The command is the first argument (nqueens takes no option before it);
    # `help COMMAND` takes a command.
    ((COMP_CWORD > 1)) && cmd=${COMP_WORDS[1]}
    if [[ -z $cmd || ($cmd == help && COMP_CWORD -eq 2) ]]; then
        local words
        if [[ $cur == -* ]]; then
            [[ -z $cmd ]] && words="--help -h --version -V"
        else
            words="$("$prog" --completion </dev/null 2>/dev/null)"
            [[ -z $cmd ]] && words="$words help"
        fi
        mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
        return 0
    fi

    spec=$(_nqueens_spec "$prog" "$cmd")
    [[ -n $spec ]] || return 0

    # The value of an option.
    option=$(_nqueens_value_option "$spec" "$prev")
    if [[ -n $option ]]; then
        if [[ $option == --checkpoint ]]; then
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            return 0
        fi
        mapfile -t COMPREPLY < <(compgen -W \
            "$(_nqueens_values "$prog" "$cmd" "$option" "$spec")" -- "$cur")
        # one word "--opt=value" (no '=' in COMP_WORDBREAKS): keep "--opt="
        [[ -n $eq ]] && COMPREPLY=("${COMPREPLY[@]/#/$eq}")
        return 0
    fi

    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W \
            "$(sed -n 's/^\(--[^= ]*\).*/\1/p' <<<"$spec")" -- "$cur")
    elif [[ $cmd == merge ]]; then
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
    return 0
}

complete -F _nqueens nqueens
