# bash completion for pidfdctl(1)                     -*- shell-script -*-
# SPDX-License-Identifier: GPL-2.0-or-later

_pidfdctl_pids()
{
	local pids
	pids=$(ps -e -o pid= 2>/dev/null) || return
	# shellcheck disable=SC2207 # the words are numbers
	COMPREPLY+=($(compgen -W "$pids" -- "$1"))
}

_pidfdctl_signals()
{
	local names
	names=$(pidfdctl kill -L 2>/dev/null | awk '{ print $2 }')
	# shellcheck disable=SC2207 # the words are signal names
	COMPREPLY+=($(compgen -W "$names" -- "$1"))
}

_pidfdctl()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local global="-v --verbose --backend -h --help -V --version"
	local cmd='' i opts

	COMPREPLY=()
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--backend) ((i++)) ;;
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done

	case $prev in
	--backend)
		# shellcheck disable=SC2207
		COMPREPLY=($(compgen -W "auto native module" -- "$cur"))
		return ;;
	-s | --signal)
		_pidfdctl_signals "$cur"
		return ;;
	-t | --timeout | -k | --kill-after | -c | --count | --value)
		return ;;
	esac

	case $cmd in
	'')
		# shellcheck disable=SC2207
		COMPREPLY=($(compgen -W "wait kill info status run doctor exec $global" -- "$cur"))
		return ;;
	wait) opts="--timeout --exited --count --quiet" ;;
	kill) opts="--signal --list --table --thread --thread-group --process-group --value --timeout" ;;
	info) opts="--json" ;;
	status) opts="" ;;
	doctor) opts="" ;;
	run)
		opts="--timeout --kill-after --signal --preserve-status --foreground"
		# After the options (and timeout(1)'s DURATION): CMD, its arguments.
		local duration=1
		for ((i = i + 1; i < COMP_CWORD; i++)); do
			case ${COMP_WORDS[i]} in
			-t | --timeout | -k | --kill-after | -s | --signal | --backend) ((i++)) ;;
			--) ;;
			-*) ;;
			[0-9]* | .[0-9]* | inf | infinity)
				((duration)) || break
				duration=0 ;;
			*) break ;;
			esac
		done
		if ((i < COMP_CWORD)); then
			# CMD's own arguments.
			# shellcheck disable=SC2207
			COMPREPLY=($(compgen -f -- "$cur"))
			return
		fi
		if [[ $cur != -* ]]; then
			# shellcheck disable=SC2207
			COMPREPLY=($(compgen -c -- "$cur"))
			return
		fi
		;;
	exec)
		# CMD, then its arguments.
		for ((i = i + 1; i < COMP_CWORD; i++)); do
			case ${COMP_WORDS[i]} in
			--backend) ((i++)) ;;
			-*) ;;
			*) break ;;
			esac
		done
		if ((i < COMP_CWORD)); then
			# shellcheck disable=SC2207
			COMPREPLY=($(compgen -f -- "$cur"))
		elif [[ $cur != -* ]]; then
			# shellcheck disable=SC2207
			COMPREPLY=($(compgen -c -- "$cur"))
		else
			# shellcheck disable=SC2207
			COMPREPLY=($(compgen -W "$global" -- "$cur"))
		fi
		return ;;
	*) return ;;
	esac
	if [[ $cur == -* ]]; then
		# shellcheck disable=SC2207
		COMPREPLY=($(compgen -W "$opts $global" -- "$cur"))
	elif [[ $cmd != run && $cmd != doctor ]]; then
		_pidfdctl_pids "$cur"
	fi
}
complete -F _pidfdctl pidfdctl
