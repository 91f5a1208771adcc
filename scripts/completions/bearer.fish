# fish completion for bearer; scripts/install puts it in PREFIX/share/fish/vendor_completions.d.
# Commands and options follow `bearer help COMMAND` (a test checks that they agree).

function __bearer_profiles
    set -l folder $BEARER_CONFIG_DIR
    if test -z "$folder"
        if test -n "$XDG_CONFIG_HOME"
            set folder $XDG_CONFIG_HOME/bearer
        else
            set folder $HOME/.config/bearer
        end
    end
    for file in $folder/*.json
        # A profile's other accounts (NAME+<16 hex digits>.json) are not profiles.
        string match -q -r '\+[0-9a-f]{16}\.json$' -- $file; or basename $file .json
    end
end

set -l commands login token curl proof status add-scopes accounts client-key logout migrate export help
complete -c bearer -f
complete -c bearer -n "not __fish_seen_subcommand_from $commands" -l help -d 'show the general help'
complete -c bearer -n "not __fish_seen_subcommand_from $commands" -l version -d 'print the version'
complete -c bearer -n "not __fish_seen_subcommand_from $commands" -a login -d 'sign in through the browser or with --device'
complete -c bearer -n "not __fish_seen_subcommand_from $commands" -a token -d 'print a fresh access token'
complete -c bearer -n "not __fish_seen_subcommand_from $commands" -a curl -d 'send an authorized request'
complete -c bearer -n "not __fish_seen_subcommand_from $commands" -a proof -d 'print the DPoP headers of one request'
complete -c bearer -n "not __fish_seen_subcommand_from $commands" -a status -d 'show the user, scopes and expiry'
complete -c bearer -n "not __fish_seen_subcommand_from $commands" -a add-scopes -d 'ask for more scopes'
complete -c bearer -n "not __fish_seen_subcommand_from $commands" -a accounts -d 'list the accounts, or choose the default'
complete -c bearer -n "not __fish_seen_subcommand_from $commands" -a client-key -d 'make a client key, print its public key set'
complete -c bearer -n "not __fish_seen_subcommand_from $commands" -a logout -d 'revoke the grant and remove the session'
complete -c bearer -n "not __fish_seen_subcommand_from $commands" -a migrate -d 'import a legacy session'
complete -c bearer -n "not __fish_seen_subcommand_from $commands" -a export -d 'write the session in another format'
complete -c bearer -n "not __fish_seen_subcommand_from $commands" -a help -d 'show the help of a command'
complete -c bearer -n "__fish_seen_subcommand_from help" -a "$commands"

set -l sessions login token curl proof status add-scopes accounts logout migrate export
complete -c bearer -n "__fish_seen_subcommand_from $sessions" -l profile -x -a '(__bearer_profiles)' -d 'the profile to use'
complete -c bearer -n "__fish_seen_subcommand_from $sessions" -l account -x -d 'the account to use'
complete -c bearer -n "__fish_seen_subcommand_from $sessions" -l help -d 'show the help of the command'
complete -c bearer -n "__fish_seen_subcommand_from accounts" -l json -d 'print a JSON array'
complete -c bearer -n "__fish_seen_subcommand_from accounts" -a default -d 'choose the default account'

complete -c bearer -n "__fish_seen_subcommand_from login migrate" -l issuer -x -d 'the authorization server'
complete -c bearer -n "__fish_seen_subcommand_from login migrate" -l google -d 'use Google'
complete -c bearer -n "__fish_seen_subcommand_from login migrate" -l client-id -x -d 'the client ID'
complete -c bearer -n "__fish_seen_subcommand_from login migrate" -l allow-insecure-loopback -d 'allow plain http on loopback'
complete -c bearer -n "__fish_seen_subcommand_from login migrate" -l client-secret-file -r -F -d 'a file holding the client secret'
complete -c bearer -n "__fish_seen_subcommand_from login" -l client-key-file -r -F -d 'the key of a private_key_jwt client'
complete -c bearer -n "__fish_seen_subcommand_from login" -l assertion-audience -x -a 'issuer endpoint' -d 'what the client assertions name as their audience'
complete -c bearer -n "__fish_seen_subcommand_from client-key" -F
complete -c bearer -n "__fish_seen_subcommand_from login migrate" -l allow-host -x -d 'another host that may receive tokens'
complete -c bearer -n "__fish_seen_subcommand_from login" -l client-secret -x -d 'the client secret'
complete -c bearer -n "__fish_seen_subcommand_from login migrate" -l scope -x -d 'the scopes to ask for'
complete -c bearer -n "__fish_seen_subcommand_from login" -l via -x -d 'the profile whose identity provider sign-in makes the resource session'
complete -c bearer -n "__fish_seen_subcommand_from logout" -l at-provider -d 'end the session at the provider too'
complete -c bearer -n "__fish_seen_subcommand_from login add-scopes logout" -l port -x -d 'the loopback port'
complete -c bearer -n "__fish_seen_subcommand_from login add-scopes logout" -l open-with -x -a '(__fish_complete_command)' -d 'the command that opens the URL'
complete -c bearer -n "__fish_seen_subcommand_from login add-scopes logout" -l no-open -d 'only print the URL'
complete -c bearer -n "__fish_seen_subcommand_from login add-scopes logout" -l no-browser -d 'sign in on another machine, paste its address'
complete -c bearer -n "__fish_seen_subcommand_from token" -l min-lifetime -x -d 'seconds the token must stay valid'
complete -c bearer -n "__fish_seen_subcommand_from login" -l device -d 'use the device flow'
complete -c bearer -n "__fish_seen_subcommand_from login add-scopes logout" -l timeout -x -d 'seconds to wait for the redirect'

complete -c bearer -n "__fish_seen_subcommand_from curl" -s X -l request -x -a 'GET POST PUT PATCH DELETE HEAD' -d 'the HTTP method'
complete -c bearer -n "__fish_seen_subcommand_from curl" -s H -l header -x -d 'a request header'
complete -c bearer -n "__fish_seen_subcommand_from curl" -s d -l data -x -d 'a form body'

complete -c bearer -n "__fish_seen_subcommand_from status" -l json -d 'print one JSON object'

complete -c bearer -n "__fish_seen_subcommand_from migrate" -l from -x -a 'gtmoauth2 gtmappauth googlesignin adc gcloud' -d 'the legacy format'
complete -c bearer -n "__fish_seen_subcommand_from migrate" -l force -d 'replace the session the profile has'
complete -c bearer -n "__fish_seen_subcommand_from migrate" -F

complete -c bearer -n "__fish_seen_subcommand_from export" -l format -x -a 'gtmoauth2 gtmappauth adc' -d 'the format'
complete -c bearer -n "__fish_seen_subcommand_from export" -l output -r -F -d 'write to this file, mode 0600'
complete -c bearer -n "__fish_seen_subcommand_from login" -l dpop -d 'bind the grant to a DPoP key (RFC 9449)'
complete -c bearer -n "__fish_seen_subcommand_from proof" -l method -x -a 'GET POST PUT PATCH DELETE HEAD' -d 'the request method'
complete -c bearer -n "__fish_seen_subcommand_from proof" -l url -x -d 'the request URL'
complete -c bearer -n "__fish_seen_subcommand_from proof" -l nonce -x -d 'the DPoP-Nonce the server sent'
