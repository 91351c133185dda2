/* A driver for Lua (../shared/bigprogs/lua, built with it as a library): five scripts of different
 * character, run one after another, the sequence twice, so that the interpreter's hot paths change
 * ten times in one run of some 2 x 10^8 instructions (docs/dynopt.md, make bench section 10b). Each
 * script returns an integer; the driver prints them and exits 0 when each equals the value QEMU
 * gave for the same ELF (qemu-system-riscv32 -M virt -bios none -semihosting-config
 * enable=on,target=native), 1 otherwise. */
#include "lua_driver.h"

static const lua_script_t kScripts[] = {
    /* integer arithmetic in tight loops: a sieve and a sum of its primes */
    {"sieve",
     "local n, s = 20000, 0\n"
     "for round = 1, 1 do\n"
     "  local comp = {}\n"
     "  for i = 1, n do comp[i] = false end\n"
     "  for i = 2, n do\n"
     "    if not comp[i] then s = s + i; for j = i * i, n, i do comp[j] = true end end\n"
     "  end\n"
     "end\n"
     "return s\n", 21171191},
    /* strings: building, searching, substitution */
    {"strings",
     "local s, words = 0, {}\n"
     "for i = 1, 3000 do words[#words + 1] = string.rep(string.char(97 + i % 26), 1 + i % 7) end\n"
     "local text = table.concat(words, ' ')\n"
     "for round = 1, 1 do\n"
     "  local t = string.gsub(text, '(%a)(%a*)', function(a, b) return string.upper(a) .. b end)\n"
     "  for w in string.gmatch(t, '%u%l+') do s = s + #w end\n"
     "  s = s + (string.find(t, 'Zzz', 1, true) or 0)\n"
     "end\n"
     "return s\n", 11688},
    /* records sorted by a comparison closure, then searched */
    {"records",
     "local recs, s = {}, 0\n"
     "for i = 1, 2000 do recs[i] = {key = (i * 7919) % 2003, id = i} end\n"
     "for round = 1, 1 do\n"
     "  table.sort(recs, function(a, b) if a.key ~= b.key then return a.key < b.key end return a.id < b.id end)\n"
     "  for i = 1, #recs, 101 do s = s + recs[i].id end\n"
     "  for i = 1, #recs do recs[i].key = (recs[i].key * 31 + round) % 2003 end\n"
     "end\n"
     "return s\n", 20943},
    /* closures: map, filter and fold over a table (no coroutines: sim/bigprogs/lua_unwind.c has
       them, and the figures of docs/dynopt.md were measured without) */
    {"closures",
     "local function map(t, f) local r = {} for i = 1, #t do r[i] = f(t[i]) end return r end\n"
     "local function filter(t, p) local r = {} for i = 1, #t do if p(t[i]) then r[#r + 1] = t[i] end end return r end\n"
     "local function fold(t, f, a) for i = 1, #t do a = f(a, t[i]) end return a end\n"
     "local t, s = {}, 0\n"
     "for i = 1, 8000 do t[i] = i end\n"
     "for round = 1, 2 do\n"
     "  local k = round\n"
     "  local u = filter(map(t, function(x) return x * k + 1 end), function(x) return x % 3 == k % 3 end)\n"
     "  s = s + fold(u, function(a, x) return (a + x) % 1000003 end, 0)\n"
     "end\n"
     "return s\n", 1011907},
    /* integer matrix products on tables of tables */
    {"matrix",
     "local n, s = 24, 0\n"
     "local function mat(k) local m = {}\n"
     "  for i = 1, n do m[i] = {} for j = 1, n do m[i][j] = (i * k + j) % 17 end end return m end\n"
     "local a, b = mat(3), mat(5)\n"
     "for round = 1, 4 do\n"
     "  local c = {}\n"
     "  for i = 1, n do local ci, ai = {}, a[i]\n"
     "    for j = 1, n do local v = 0 for k = 1, n do v = v + ai[k] * b[k][j] end ci[j] = v % 1000003 end\n"
     "    c[i] = ci end\n"
     "  a = c\n"
     "  for i = 1, n do s = s + a[i][i] end\n"
     "end\n"
     "return s\n", 33217979},
};

#define ROUNDS 2

/* The values are QEMU's (the comment at the top); two are checked by hand as well (a few lines of
 * Python): the sum of the primes below 20,000, and the closures' fold. */
int main(void) { return lua_run_scripts("lua phases", kScripts, sizeof kScripts / sizeof kScripts[0], ROUNDS); }
