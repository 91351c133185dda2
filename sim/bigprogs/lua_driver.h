/* Shared by the Lua drivers (sim/bigprogs/lua_phases.c, lua_unwind.c; Lua from ../shared/bigprogs
 * built as a library with them): a script with the value it must return, and the loop that runs a
 * list of them and checks the values. Included by one driver a program. */
#ifndef HWPROF_LUA_DRIVER_H
#define HWPROF_LUA_DRIVER_H

#include <stdio.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

typedef struct {
  const char *name;
  const char *text;   /* returns an integer */
  long long expect;   /* the value it must return (what QEMU gave for the same ELF) */
} lua_script_t;

/* Runs the n scripts, the list rounds times over, each in a fresh state; prints "TAG: NAME VALUE"
 * ("TAG: round R NAME VALUE" with several rounds; " (unexpected)" after a value that is not the
 * expected one), then "TAG: ok" or "TAG: FAILED". Returns 0 when every value was the expected one,
 * 1 when one was not, 2 when a script raised an error (printed). */
static int lua_run_scripts(const char *tag, const lua_script_t *s, unsigned n, int rounds) {
  int bad = 0;
  for (int r = 0; r < rounds; r++)
    for (unsigned k = 0; k < n; k++) {
      lua_State *L = luaL_newstate();
      luaL_openlibs(L);
      if (luaL_dostring(L, s[k].text) != LUA_OK) {
        printf("%s: %s: error: %s\n", tag, s[k].name, lua_tostring(L, -1));
        lua_close(L);
        return 2;
      }
      const long long v = (long long)lua_tointeger(L, -1);
      lua_close(L);
      if (rounds > 1) printf("%s: round %d %s %lld%s\n", tag, r + 1, s[k].name, v, v == s[k].expect ? "" : " (unexpected)");
      else printf("%s: %s %lld%s\n", tag, s[k].name, v, v == s[k].expect ? "" : " (unexpected)");
      bad |= v != s[k].expect;
    }
  printf("%s: %s\n", tag, bad ? "FAILED" : "ok");
  return bad;
}

/* picolibc's semihosting layer has no rename(); os.rename is not used by the scripts */
int rename(const char *from, const char *to) {
  (void)from;
  (void)to;
  return -1;
}

#endif /* HWPROF_LUA_DRIVER_H */
