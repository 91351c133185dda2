# The checks of make test on the report page (docs/report.md, "One page per run"), sourced by
# tools/runtests.sh, whose check(), $build and $logdir they use.
#
# A workload and an Embench program (with their value-profiler builds) and Lua (../shared: skipped
# with a note when absent) each go through every profile (tools/report_run.sh, hwprof-report under
# ASan/UBSan); Debian's chromium opens each page through Selenium (tb/check/html_check.py): every image
# loads, every table has rows, the console has no error, and the hottest functions' instructions
# equal the retirements inside their symbols in the program's own run (hwprof-sim --pc-counts,
# binutils' nm). A copy of one page with an image removed and a count changed must fail that check.

report_asan="$build/unit/hwprof-report-asan"
venv_py="$build/venv/bin/python"

# report_page NAME PROGRAM.elf [VP.elf]: the run directory $logdir/runs/NAME, its page checked
report_page() {
  local name=$1 elf=$2 vp=${3:-} dir="$logdir/runs/$1"
  HWPROF_REPORT="$report_asan" tools/report_run.sh "$build" "$elf" "$dir" $vp 2>&1 | grep -v "^report_run: $name: " ||
    true
  [ -f "$dir/report/index.html" ] || { echo "$name: no page"; return 1; }
  "$build/sim/hwprof-sim" --engine=none --pc-counts="$dir/program.counts" "$dir/program.elf" >/dev/null 2>&1 &&
    "$venv_py" tb/check/html_check.py "$dir/report/index.html" --pc-counts="$dir/program.counts" --elf="$dir/program.elf"
}

report_pages() {
  local rc=0 neg="$logdir/runs/broken"
  [ -x "$venv_py" ] && "$venv_py" -c "import selenium" 2>/dev/null ||
    { echo "Selenium is not in $build/venv (make deps)"; return 1; }
  report_page interp "$build/instr/interp.elf" "$build/workloads/interp-vp.elf" || rc=1
  if [ -f "$build/embench/crc32.elf" ]; then
    report_page crc32 "$build/embench/crc32.elf" "$build/embench/crc32-vp.elf" || rc=1
  else
    echo "note: ../shared/embench is not there: no Embench page"
  fi
  if [ -f "$build/bigprogs/lua.elf" ]; then
    report_page lua "$build/bigprogs/lua.elf" || rc=1
  else
    echo "note: ../shared/bigprogs is not there: no Lua page"
  fi
  # the check must see a broken page: one image gone, one function's count changed
  rm -rf "$neg"
  cp -r "$logdir/runs/interp/report" "$neg" || return 1
  rm "$neg/values.svg"
  sed -i '0,/<td class="n">[0-9,]*<\/td><td class="n">[0-9.]*%<\/td><\/tr>/s//<td class="n">7<\/td><td class="n">0.00%<\/td><\/tr>/' \
    "$neg/index.html"
  local out
  out=$("$venv_py" tb/check/html_check.py "$neg/index.html" --pc-counts="$logdir/runs/interp/program.counts" \
    --elf="$logdir/runs/interp/program.elf")
  echo "a broken copy: $(tail -1 <<<"$out")"
  grep -q "image values.svg did not load" <<<"$out" && grep -q "the page says 7 instructions" <<<"$out" &&
    grep -q "FAILED" <<<"$out" || rc=1
  return $rc
}
check report-page-headless-browser report_pages

# hwprof-report html on bad input: one line naming the file, exit 1 (2 for bad arguments), and no
# page or image left (the output folder is removed when it made it)
report_html_bad_input() {
  local good="$logdir/runs/interp" d="$logdir/runs-bad" out rc what
  [ -f "$good/report/index.html" ] || { echo "no interp run (report-page-headless-browser failed)"; return 1; }
  # bad_case WHAT FILE-NAMED: the run directory $d/run made by the caller; exit 1, one line, the file named
  bad_case() {
    out=$("$report_asan" html "$d/run" -o "$d/out" 2>&1)
    rc=$?
    echo "$1 -> $rc: $out"
    [ "$rc" = 1 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -qF "$2" <<<"$out" && [ ! -e "$d/out" ]
  }
  fresh() { rm -rf "$d" && mkdir -p "$d" && cp -r "$good" "$d/run" && rm -rf "$d/run/report"; }
  fresh && rm "$d/run/program.elf" && bad_case "no program.elf" "program.elf" || return 1
  fresh && head -c 700 "$good/paths.paths" >"$d/run/paths.paths" && bad_case "a truncated path profile" "paths.paths" || return 1
  fresh && sed -i '5s/^.*$/path x/' "$d/run/paths.paths" && bad_case "a malformed path profile" "paths.paths:5" || return 1
  fresh && sed -i 's/^value 0x\([0-9a-f]*\) \([0-9]*\) \([0-9]*\)$/value 0x\1 \2 99999999/' "$d/run/vp-profile.txt" &&
    bad_case "a value profile whose counts exceed the totals" "vp-profile.txt" || return 1
  fresh && cp "$build/instr/lz.elf" "$d/run/program.elf" && bad_case "another program's map (stale)" "edge.map does not describe" ||
    return 1
  fresh && head -n 5 "$good/phases.txt" >"$d/run/phases.txt" && bad_case "a truncated phase truth" "phases.txt" || return 1
  fresh && printf 'not a table\n' >"$d/run/wpp.strata.txt" && bad_case "a malformed whole-program path table" "wpp.strata.txt:1" ||
    return 1
  fresh && head -n 4 "$good/wpp.paths.txt" >"$d/run/wpp.paths.txt" &&
    bad_case "a whole-program path table cut at a line" "wpp.paths.txt:4: truncated" || return 1
  fresh && head -c 40 "$good/wpp.idx" >"$d/run/wpp.idx" && bad_case "a truncated wpp index" "wpp.idx" || return 1
  fresh && head -n -1 "$good/vp-profile.txt" >"$d/run/vp-profile.txt" &&
    bad_case "a value profile without its end record" "vp-profile.txt" || return 1
  out=$("$report_asan" html --frobnicate "$d/run" 2>&1)
  rc=$?
  echo "--frobnicate -> $rc: $out"
  [ "$rc" = 2 ] && grep -q -- "--frobnicate" <<<"$out" || return 1
  out=$("$report_asan" html "$d/no-such-run" -o "$d/out" 2>&1)
  rc=$?
  echo "no run directory -> $rc: $out"
  [ "$rc" = 1 ] && grep -q "no-such-run" <<<"$out" && [ ! -e "$d/out" ]
}
check report-html-rejects-bad-input report_html_bad_input
