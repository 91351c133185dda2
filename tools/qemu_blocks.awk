# QEMU's retired-PC stream from its block log (tools/qemu_check.sh): with -d in_asm,exec,nochain
# QEMU logs each translated block's instructions once (an "IN:" listing, one "0xADDR:  WORD ..." line
# each, ended by an empty line) and every execution of a block (a "Trace" line with
# [cpu/pc/flags/cflags]); without chaining every block entry passes through its main loop, and a
# block ends at every branch, jump, trap and semihosting call, so a block that starts runs whole.
# A listing is bound to the block key (pc, flags, cflags) of the Trace line that follows it, the
# block's first run; every Trace line prints its block's addresses, one 8-digit hex number a line,
# in order. A block that ran with no listing, or a listing whose first run starts elsewhere, is an
# error (exit 1): the stream would not be QEMU's.
# usage: mawk -f tools/qemu_blocks.awk QEMU.log
/^IN:/ { inb = 1; n = 0; next }
inb && /^0x[0-9a-f]+:/ { a = substr($1, 3, length($1) - 3); if (n == 0) start = a; blk[n++] = a; next }
inb && /^$/ { inb = 0; pending = 1; next }
/^Trace / {
  split($4, f, "/"); sub(/\].*/, "", f[4]); key = f[2] "/" f[3] "/" f[4]
  if (pending) {
    pending = 0
    if (f[2] != start) { print "qemu_blocks: the block listed at " start " first ran as " f[2] > "/dev/stderr"; exit 1 }
    len[key] = n
    for (i = 0; i < n; i++) addr[key, i] = blk[i]
  }
  if (!(key in len)) { print "qemu_blocks: block " key " ran with no listing in the log" > "/dev/stderr"; exit 1 }
  for (i = 0; i < len[key]; i++) print addr[key, i]
}
