/* A driver for Lua (../shared/bigprogs/lua, built with it as a library) whose scripts leave
 * functions by longjmp all the time: coroutine generators (every yield from Lua's C library
 * unwinds the interpreter to the resume's protected call, luaD_throw to luaD_rawrunprotected),
 * errors raised and caught by pcall at several depths, and errors inside coroutines. The profilers'
 * checks run it instrumented (docs/instrumenter.md, "setjmp and longjmp"): every landing must leave
 * the profile exact. Each script returns an integer; the driver prints them and exits 0 when each
 * equals the value QEMU gave for the same ELF (qemu-system-riscv32 -M virt -bios none
 * -semihosting-config enable=on,target=native), 1 otherwise. */
#include "lua_driver.h"

static const lua_script_t kScripts[] = {
    /* generators: producers that yield, filters that resume them, a consumer that folds */
    {"generators",
     "local function range(n) return coroutine.wrap(function() for i = 1, n do coroutine.yield(i) end end) end\n"
     "local function filter(p, g) return coroutine.wrap(function()\n"
     "  for x in g do if p(x) then coroutine.yield(x) end end end) end\n"
     "local function map(f, g) return coroutine.wrap(function() for x in g do coroutine.yield(f(x)) end end) end\n"
     "local s = 0\n"
     "for round = 1, 2 do\n"
     "  for x in map(function(x) return x * round end, filter(function(x) return x % 3 ~= 0 end, range(1000))) do\n"
     "    s = (s + x) % 1000003\n"
     "  end\n"
     "end\n"
     "return s\n", 998},
    /* errors: raised at a random depth of recursion, caught by pcall at the top or half-way */
    {"errors",
     "local seed, s = 7, 0\n"
     "local function rnd() seed = (seed * 1103515245 + 12345) % 2147483648 return seed end\n"
     "local function dive(d, limit)\n"
     "  if d == limit then error({depth = d}) end\n"
     "  if d == 5 then local ok, e = pcall(dive, d + 1, limit) if not ok then return e.depth * 2 end return e end\n"
     "  return dive(d + 1, limit) + 1\n"
     "end\n"
     "for i = 1, 400 do\n"
     "  local ok, e = pcall(dive, 0, rnd() % 12)\n"
     "  if ok then s = s + e else s = s + e.depth end\n"
     "  local ok2, msg = pcall(function() local t = nil return t.x end)\n"
     "  if not ok2 then s = s + #msg % 7 end\n"
     "end\n"
     "return s\n", 4127},
    /* coroutines that fail: an error inside a resumed coroutine, and yields across pcall */
    {"failing",
     "local s = 0\n"
     "local function worker(n)\n"
     "  for i = 1, n do\n"
     "    local ok, v = pcall(function() if i % 17 == 0 then error('bad ' .. i) end coroutine.yield(i) return i end)\n"
     "    if not ok then s = s + 1 end\n"
     "  end\n"
     "  if n % 5 == 0 then error('done badly') end\n"
     "  return n\n"
     "end\n"
     "for k = 1, 100 do\n"
     "  local co = coroutine.create(worker)\n"
     "  local ok, v = coroutine.resume(co, k % 40)\n"
     "  while ok and coroutine.status(co) ~= 'dead' do s = (s + (v or 0)) % 1000003 ok, v = coroutine.resume(co) end\n"
     "  if not ok then s = s + 100 end\n"
     "end\n"
     "return s\n", 23664},
};


/* The values are QEMU's (the comment at the top); the generators' is checked by hand as well (a few
 * lines of Python: over two rounds, the sum of round * x for x up to 1000 not divisible by 3,
 * modulo 1000003). */
int main(void) { return lua_run_scripts("lua unwind", kScripts, sizeof kScripts / sizeof kScripts[0], 1); }
