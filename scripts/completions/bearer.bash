# bash completion for bearer; scripts/install puts it in PREFIX/share/bash-completion/completions.
# Commands and options follow `bearer help COMMAND` (a test checks that they agree).

_bearer_profiles() {
    local folder="${BEARER_CONFIG_DIR:-${XDG_CONFIG_HOME:-$HOME/.config}/bearer}"
    local file
    for file in "$folder"/*.json; do
        # A profile's other accounts (NAME+<16 hex digits>.json) are not profiles.
        [[ -e "$file" && ! "$file" =~ \+[0-9a-f]{16}\.json$ ]] && basename "$file" .json
    done
}

_bearer() {
    local cur="${COMP_WORDS[COMP_CWORD]}"
    local prev="${COMP_WORDS[COMP_CWORD-1]}"
    local commands="login token curl proof status add-scopes accounts client-key logout migrate export help"
    if ((COMP_CWORD == 1)); then
        mapfile -t COMPREPLY < <(compgen -W "$commands --help --version" -- "$cur")
        return
    fi
    case "$prev" in
        --profile)
            mapfile -t COMPREPLY < <(compgen -W "$(_bearer_profiles)" -- "$cur")
            return
            ;;
        --from)
            mapfile -t COMPREPLY < <(compgen -W "gtmoauth2 gtmappauth googlesignin adc gcloud" -- "$cur")
            return
            ;;
        --format)
            mapfile -t COMPREPLY < <(compgen -W "gtmoauth2 gtmappauth adc" -- "$cur")
            return
            ;;
        --assertion-audience)
            mapfile -t COMPREPLY < <(compgen -W "issuer endpoint" -- "$cur")
            return
            ;;
        --request | -X)
            mapfile -t COMPREPLY < <(compgen -W "GET POST PUT PATCH DELETE HEAD" -- "$cur")
            return
            ;;
        --open-with)
            mapfile -t COMPREPLY < <(compgen -c -- "$cur")
            return
            ;;
        --client-secret-file | --client-key-file | --output)
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            return
            ;;
        --issuer | --client-id | --client-secret | --allow-host | --scope | --via | --port | --timeout | --min-lifetime | --header | -H | --data | -d | --method | --url | --nonce)
            return
            ;;
    esac
    local options="--profile --account --help"
    case "${COMP_WORDS[1]}" in
        accounts) options+=" --json" ;;
        login)
            options+=" --issuer --google --client-id --client-secret --scope --port --open-with --no-open --no-browser --device --dpop --via"
            options+=" --allow-insecure-loopback --timeout --client-secret-file --client-key-file --assertion-audience --allow-host"
            ;;
        curl) options+=" --request -X --header -H --data -d" ;;
        proof) options+=" --method --url --nonce" ;;
        status) options+=" --json" ;;
        token) options+=" --min-lifetime" ;;
        add-scopes) options+=" --port --open-with --no-open --no-browser --timeout" ;;
        logout) options+=" --at-provider --port --open-with --no-open --no-browser --timeout" ;;
        client-key)
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            return
            ;;
        migrate)
            options+=" --from --force --issuer --google --client-id --allow-insecure-loopback --scope"
            options+=" --client-secret-file --allow-host"
            ;;
        export) options+=" --format --output" ;;
        help)
            mapfile -t COMPREPLY < <(compgen -W "${commands% help}" -- "$cur")
            return
            ;;
    esac
    if [[ "$cur" == -* || "${COMP_WORDS[1]}" != migrate ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
    else
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
}

complete -F _bearer bearer
