/* Comparing a path profile with the oracle's paths; see pp_compare.h and docs/path.md. */
#include "pp_compare.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char *key; /* "FUNC HEAD END ITEMS" */
  uint64_t count;
} entry_t;

typedef struct {
  entry_t *e;
  size_t n, cap;
  uint32_t *fn; /* the functions seen */
  uint64_t *runs, *entries; /* the truth's: per function, its plain paths' count and block entries */
  size_t nfn, capfn;
} set_t;

static int add_fn(set_t *s, uint32_t addr) {
  if (s->nfn == s->capfn) {
    s->capfn = s->capfn ? 2 * s->capfn : 64;
    uint32_t *f = realloc(s->fn, s->capfn * sizeof *f);
    if (f) s->fn = f;
    uint64_t *r = realloc(s->runs, s->capfn * sizeof *r);
    if (r) s->runs = r;
    uint64_t *b = realloc(s->entries, s->capfn * sizeof *b);
    if (b) s->entries = b;
    if (f == NULL || r == NULL || b == NULL) return -1;
  }
  s->runs[s->nfn] = s->entries[s->nfn] = 0;
  s->fn[s->nfn++] = addr;
  return 0;
}

static int add(set_t *s, uint32_t fn, uint32_t head, const char *end, const char *items, uint64_t count) {
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 256;
    entry_t *e = realloc(s->e, s->cap * sizeof *e);
    if (e == NULL) return -1;
    s->e = e;
  }
  const size_t len = strlen(end) + strlen(items) + 32;
  char *k = malloc(len);
  if (k == NULL) return -1;
  snprintf(k, len, "%08" PRIx32 " %08" PRIx32 " %s%s", fn, head, end, items);
  s->e[s->n++] = (entry_t){k, count};
  return 0;
}

static void free_set(set_t *s) {
  for (size_t i = 0; i < s->n; i++) free(s->e[i].key);
  free(s->e);
  free(s->fn);
  free(s->runs);
  free(s->entries);
}

static int by_key(const void *a, const void *b) { return strcmp(((const entry_t *)a)->key, ((const entry_t *)b)->key); }

static bool has_fn(const set_t *s, uint32_t addr) {
  for (size_t i = 0; i < s->nfn; i++)
    if (s->fn[i] == addr) return true;
  return false;
}

/* "path COUNT END ITEMS": the count, END, and ITEMS with a leading space ("" when none) in items */
static int path_line(char *line, uint64_t *count, char **end, char *items, size_t cap) {
  char *p = line + 5, *q;
  *count = strtoull(p, &q, 10);
  if (q == p || *q != ' ' || *count == 0) return -1;
  *end = q + 1;
  char *nl = strchr(*end, '\n');
  if (nl) *nl = 0;
  char *sp = strchr(*end, ' ');
  items[0] = 0;
  if (sp) {
    *sp = 0;
    snprintf(items, cap, " %s", sp + 1);
  }
  return **end ? 0 : -1;
}

/* What a reader knows so far of the file it reads. */
typedef struct {
  set_t *s;
  bool plain;        /* the profile's embodiment (set by the profile, read by the truth) */
  uint64_t open;     /* the truth's paths open at the end of the run */
  uint32_t fn, head; /* the current function and region head */
  bool in_fn, in_region, hier, ended;
} rd_t;

/* One line of a file (its newline dropped by the line itself where it matters): NULL, or what is
 * wrong with it. */
typedef const char *(*line_fn_t)(rd_t *r, char *line);

/* Reads path line by line after its header line; one error naming the file and line. */
static int read_file(const char *path, const char *header, line_fn_t line_fn, rd_t *r, char *err, size_t errlen) {
  FILE *f = fopen(path, "r");
  char *line = malloc(65536);
  if (f == NULL || line == NULL) {
    snprintf(err, errlen, f ? "out of memory" : "%s: cannot open", path);
    if (f) fclose(f);
    free(line);
    return -1;
  }
  unsigned lineno = 0;
  const char *why = NULL;
  while (why == NULL && fgets(line, 65536, f)) {
    lineno++;
    if (strchr(line, '\n') == NULL && !feof(f)) why = "line too long";
    else if (lineno == 1) why = strcmp(line, header) ? "not the file expected (its first line)" : NULL;
    else why = line_fn(r, line);
  }
  if (why == NULL && lineno == 0) why = "empty";
  if (why == NULL && !r->ended) why = "no end line: the file is cut short";
  if (why) {
    if (lineno == 1 && !strcmp(why, "not the file expected (its first line)"))
      snprintf(err, errlen, "%s:1: not a %s file (%.*s)", path, strstr(header, "truth") ? "path-truth" : "path-profile",
               (int)strlen(header) - 1, header);
    else
      snprintf(err, errlen, "%s:%u: %s", path, lineno, why);
  }
  fclose(f);
  free(line);
  return why ? -1 : 0;
}

/* The profile: functions, regions, paths. */
static const char *profile_line(rd_t *r, char *line) {
  char name[256], word[32], it[65536];
  if (!strncmp(line, "embodiment ", 11)) {
    if (sscanf(line, "embodiment %31s", word) != 1 || (strcmp(word, "plain") && strcmp(word, "rb") && strcmp(word, "gp")))
      return "bad embodiment";
    r->plain = !strcmp(word, "plain");
  } else if (!strncmp(line, "function ", 9)) {
    if (sscanf(line, "function %255s 0x%" SCNx32, name, &r->fn) != 2) return "malformed function line";
    if (add_fn(r->s, r->fn)) return "out of memory";
    r->in_fn = true;
    r->in_region = false;
  } else if (!strncmp(line, "region ", 7)) {
    unsigned n;
    if (!r->in_fn || sscanf(line, "region %u head %" SCNx32, &n, &r->head) != 2) return "malformed region line";
    r->in_region = true;
  } else if (!strncmp(line, "path ", 5)) {
    uint64_t count;
    char *end;
    if (!r->in_region || path_line(line, &count, &end, it, sizeof it)) return "malformed path line";
    if (add(r->s, r->fn, r->head, end, it, count)) return "out of memory";
  } else if (!strncmp(line, "end ", 4)) {
    r->ended = true;
  } else if (strncmp(line, "program ", 8)) {
    return "unknown line";
  }
  return NULL;
}

/* The oracle: plain paths (function ... / path ...) and, when present, hierarchical ones
 * (region HEAD / rpath ...); the ones open at the end of the run are counted apart. */
static const char *truth_line(rd_t *r, char *line) {
  char name[256], it[65536];
  const bool is_path = !strncmp(line, "path ", 5), is_rpath = !strncmp(line, "rpath ", 6);
  if (!strncmp(line, "function ", 9)) {
    if (sscanf(line, "function %255s 0x%" SCNx32, name, &r->fn) != 2) return "malformed function line";
    if (add_fn(r->s, r->fn)) return "out of memory";
    r->in_fn = true;
    r->head = r->fn;
  } else if (!strncmp(line, "region ", 7)) {
    if (!r->in_fn || sscanf(line, "region %" SCNx32, &r->head) != 1) return "malformed region line";
    r->hier = true;
  } else if (is_path || is_rpath) {
    uint64_t count;
    char *end;
    if (!r->in_fn || path_line(line + (is_rpath ? 1 : 0), &count, &end, it, sizeof it)) return "malformed path line";
    if (is_path) { /* the run's paths and block entries, open ones too: the coverage's whole */
      uint64_t blocks = 0;
      for (const char *c = it; *c; c++) blocks += *c == ' ';
      r->s->runs[r->s->nfn - 1] += count;
      r->s->entries[r->s->nfn - 1] += count * blocks;
    }
    if (is_path != r->plain) return NULL; /* the other embodiment's paths */
    if (!strcmp(end, "open")) {
      r->open += count;
      return NULL;
    }
    if (add(r->s, r->fn, is_path ? r->fn : r->head, end, it, count)) return "out of memory";
  } else if (!strncmp(line, "end ", 4)) {
    r->ended = true;
  } else if (strncmp(line, "program ", 8)) {
    return "unknown line";
  }
  return NULL;
}

long pp_compare_files(const char *profile, const char *truth, FILE *report, pp_compare_stats_t *st, char *err,
                      size_t errlen) {
  set_t p = {0}, t = {0};
  long diff = -1;
  bool plain = true;
  pp_compare_stats_t s = {0};
  rd_t rp = {.s = &p, .plain = true}, rt = {.s = &t};
  if (read_file(profile, "hwprof-path-profile 1\n", profile_line, &rp, err, errlen)) goto out;
  plain = rp.plain;
  rt.plain = plain;
  if (read_file(truth, "hwprof-path-truth 1\n", truth_line, &rt, err, errlen)) goto out;
  if (!plain && !rt.hier) {
    snprintf(err, errlen, "%s: no hierarchical paths (region lines): a truth file for region-based profiles needs them", truth);
    goto out;
  }
  s.open = rt.open;
  /* only the functions the profile covers */
  size_t k = 0;
  for (size_t i = 0; i < t.n; i++) {
    uint32_t fn = (uint32_t)strtoul(t.e[i].key, NULL, 16);
    if (has_fn(&p, fn)) t.e[k++] = t.e[i];
    else free(t.e[i].key);
  }
  t.n = k;
  for (size_t i = 0; i < t.nfn; i++) {
    const bool in = has_fn(&p, t.fn[i]);
    s.not_profiled += !in;
    s.run_paths += t.runs[i];
    s.run_entries += t.entries[i];
    if (in) s.covered_paths += t.runs[i], s.covered_entries += t.entries[i];
  }
  s.functions = (unsigned)p.nfn;
  if (p.n) qsort(p.e, p.n, sizeof *p.e, by_key); /* (no paths: no array, and qsort takes none) */
  if (t.n) qsort(t.e, t.n, sizeof *t.e, by_key);
  diff = 0;
  size_t i = 0, j = 0;
  while (i < p.n || j < t.n) {
    const int c = i == p.n ? 1 : j == t.n ? -1 : strcmp(p.e[i].key, t.e[j].key);
    const uint64_t pc = c <= 0 ? p.e[i].count : 0, tc = c >= 0 ? t.e[j].count : 0;
    const char *key = c <= 0 ? p.e[i].key : t.e[j].key;
    if (pc != tc) {
      if (diff < 20) fprintf(report, "  differs: function/region %.17s path%s: profile %" PRIu64 ", oracle %" PRIu64 "\n",
                             key, key + 17, pc, tc);
      diff++;
    }
    s.paths++;
    s.count += tc;
    if (c <= 0) i++;
    if (c >= 0) j++;
  }
  if (st) *st = s;
out:
  free_set(&p);
  free_set(&t);
  return diff;
}
