/// The completion scripts `wx completion SHELL` prints. They hold no grammar and no matching:
/// each hands the command line to `wx __complete` (CompletionEntry.swift) and inserts what it
/// prints, one candidate a line, already matched (case- and accent-insensitively) and, for
/// bash, already quoted. So they must not filter again, as bash's `compgen -W` would.
enum CompletionScripts {
  static func script(for shell: String) -> String? {
    switch shell {
    case "bash": return bash
    case "zsh": return zsh
    case "fish": return fish
    default: return nil
    }
  }

  static let bash = #"""
    # bash completion for wx                                    -*- shell-script -*-
    # Load it with:  source <(wx completion bash)
    # or install it: wx completion bash > ~/.local/share/bash-completion/completions/wx
    _wx() {
        local reply
        # COMP_POINT counts characters in a UTF-8 locale (bytes in C): cut the line here, in
        # the same units, and let wx take all of what it is given.
        reply=$(command wx __complete bash "${COMP_LINE:0:COMP_POINT}" 2147483647 "$COMP_WORDBREAKS" 2>/dev/null) || return 0
        COMPREPLY=()
        [[ -n $reply ]] && mapfile -t COMPREPLY <<<"$reply"
        return 0
    }
    complete -o nosort -F _wx wx

    """#

  static let zsh = #"""
    #compdef wx
    # zsh completion for wx
    # Load it with:  source <(wx completion zsh)   (after compinit)
    # or install it: wx completion zsh > "${fpath[1]}/_wx"
    _wx() {
        local -a candidates
        candidates=("${(@f)$(command wx __complete zsh -- "${(@Q)words[2,CURRENT-1]}" "${(Q)PREFIX}" 2>/dev/null)}")
        candidates=("${(@)candidates:#}")
        (( ${#candidates} )) || return 1
        # -U: wx has matched them already (case and accents ignored); zsh quotes what it inserts.
        compadd -U -V wx -- "${candidates[@]}"
        # When what they share is shorter than what was typed ("zu": Zurich and Zürich share
        # "Z"), list them and leave the word as it is instead of shortening it.
        local shared=${candidates[1]} c
        for c in "${candidates[@]:1}"; do
            while [[ -n $shared && $c != ${(b)shared}* ]]; do shared=${shared[1,-2]}; done
        done
        (( ${#candidates} > 1 && ${#shared} < ${#${(Q)PREFIX}} )) && unset 'compstate[insert]'
        return 0
    }
    if [[ "${funcstack[1]}" == _wx ]]; then
        _wx "$@"
    else
        compdef _wx wx
    fi

    """#

  static let fish = #"""
    # fish completion for wx
    # Load it with:  wx completion fish | source
    # or install it: wx completion fish > ~/.config/fish/completions/wx.fish
    function __wx_complete
        set -l tokens (commandline -opc)
        set -e tokens[1]
        command wx __complete fish -- $tokens (commandline -ct) 2>/dev/null
    end
    # fish matches what a function offers against the typed word once more, ignoring case but
    # not accents, and keeps only its best kind of match: wx offers each name in a form fish
    # keeps (zu -> Zurich, and Zürich as Zurich; kiev -> kiev, described Kyiv).
    # -k keeps wx's order (best matches first).
    complete -c wx -f -k -a '(__wx_complete)'

    """#
}
