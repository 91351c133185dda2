# The checks of make test on the docs, sourced by tools/runtests.sh, whose check(), $build and $logdir
# they use.

# --- every quick start (a code block marked <!-- quickstart --> in the README or docs/, extracted by
#     tools/quickstarts.py) runs as written, in a scratch copy of the repository's files whose
#     build/ mirrors this build (a link per file; the large folders no quick start reads linked
#     whole): each must exit 0 and write only into build/try/ (nothing into the repository, nothing
#     beside it in build/, no file of the build changed)
quickstarts() {
  local s rc=0 name names new d prune=()
  local whole=(ccache venv asan obj fuzz cov mutate campaign gls) # large, and no quick start reads them
  s="$(cd "$logdir" && pwd)/quickstarts" # absolute: the quick starts run from inside it
  rm -rf "$s"
  mkdir -p "$s/repo/build" "$s/scripts"
  git ls-files -z | xargs -0 cp --parents -t "$s/repo" || return 1
  for d in "$build"/*; do
    if [[ " try test-logs " == *" $(basename "$d") "* ]]; then continue
    elif [[ " ${whole[*]} " == *" $(basename "$d") "* ]]; then ln -s "$(cd "$d" && pwd)" "$s/repo/build/"
    else cp -rs "$(cd "$d" && pwd)" "$s/repo/build/"
    fi
  done
  for d in "${whole[@]}" try; do prune+=(-path "./build/$d" -o); done
  mapfile -t names < <(python3 tools/quickstarts.py "$s/scripts" README.md docs/*.md) || return 1
  [ "${#names[@]}" -gt 0 ] || { echo "no quick start found"; return 1; }
  touch "$s/start"
  for name in "${names[@]}"; do
    if (cd "$s/repo" && bash "$s/scripts/$name") >"$s/$name.log" 2>&1; then
      echo "$name ($(head -1 "$s/scripts/$name" | cut -c3-)): ran, $(grep -cv '^#\|^set -e$\|^$' "$s/scripts/$name") commands"
    else
      echo "$name ($(head -1 "$s/scripts/$name" | cut -c3-)): failed:"
      tail -5 "$s/$name.log" | sed 's/^/  /'
      rc=1
    fi
  done
  new=$(cd "$s/repo" && find -L . \( "${prune[@]::${#prune[@]}-1}" \) -prune -o -newer "$s/start" -type f -print | sort)
  if [ -n "$new" ]; then
    echo "quick starts wrote outside build/try/:"
    sed 's/^/  /' <<<"$new"
    rc=1
  fi
  return $rc
}
check docs-quickstarts-run-as-written quickstarts
