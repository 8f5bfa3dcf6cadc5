# bash completion for nqueens                            -*- shell-script -*-
#
# Installed as share/bash-completion/completions/nqueens (loaded on demand
# by bash-completion), or source it from ~/.bashrc.  It completes the
# commands, each command's options, engine names (read from `nqueens
# engines` at completion time, so a new engine appears by itself), kernel
# names (from `nqueens --version`), formats, methods, and file names for
# --checkpoint and merge.  It needs nothing from bash-completion itself.

# The engines of the nqueens being completed: the first column of
# `nqueens engines`, its header line skipped.  With "lists", only those
# that can list solutions (the third column says yes).
_nqueens_engines()
{
    local prog=$1 which=$2
    "$prog" engines 2>/dev/null | awk -v which="$which" \
        'NR > 1 && NF && (which != "lists" || $3 == "yes") { print $1 }'
}

# The kernels built in: "kernels: scalar, sse4, avx2, avx512 (this CPU: ...)".
_nqueens_kernels()
{
    local line
    line=$("$1" --version 2>/dev/null | sed -n 's/^kernels: \([^(]*\).*/\1/p')
    line=${line//,/ }
    echo "${line:-scalar sse4 avx2 avx512 neon}"
}

_nqueens()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=''
    local prog=${COMP_WORDS[0]} cmd='' opts='' values='' eq=''
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

    # The command is the first argument (nqueens takes no option before it).
    ((COMP_CWORD > 1)) && cmd=${COMP_WORDS[1]}

    if [[ -z $cmd ]]; then
        if [[ $cur == -* ]]; then
            opts="--help -h --version -V"
        else
            opts="count solve engines units merge tree trace compare find
                  complete help"
        fi
        mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
        return 0
    fi

    # The value of an option.
    values=
    case $prev in
    --engine)
        case $cmd in
        solve) values=$(_nqueens_engines "$prog" lists) ;;
        *) values=$(_nqueens_engines "$prog") ;;
        esac
        ;;
    --kernel) values=$(_nqueens_kernels "$prog") ;;
    --format)
        case $cmd in
        tree) values="text dot svg" ;;
        find) values="array json grid dots unicode svg" ;;
        *) values="grid dots array unicode svg json" ;;
        esac
        ;;
    --method) values="formula search" ;;
    --checkpoint)
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        return 0
        ;;
    --threads | --limit | --depth | --budget | --seed | --part | \
        --max-units | --given)
        return 0 # a number or a list: nothing to offer
        ;;
    esac
    if [[ -n $values ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$values" -- "$cur")
        # one word "--opt=value" (no '=' in COMP_WORDBREAKS): keep "--opt="
        [[ -n $eq ]] && COMPREPLY=("${COMPREPLY[@]/#/$eq}")
        return 0
    fi

    case $cmd in
    count)
        opts="--engine --iterative --threads --quiet --json --kernel
              --checkpoint --part --max-units"
        ;;
    solve) opts="--format --limit --unique --engine --iterative" ;;
    engines | help) opts= ;;
    units) opts="--engine" ;;
    merge) opts="--json" ;;
    tree) opts="--engine --format --depth --iterative" ;;
    trace) opts="--engine --limit --iterative" ;;
    compare) opts="--budget --threads" ;;
    find) opts="--method --seed --format --verify" ;;
    complete) opts="--given --first --all --limit --format --threads" ;;
    *) return 0 ;;
    esac

    if [[ $cur == -* ]]; then
        [[ $cmd == help ]] || opts="$opts --help"
        mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
    elif [[ $cmd == merge ]]; then
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
    return 0
}

complete -F _nqueens nqueens
