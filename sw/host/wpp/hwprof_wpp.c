/* hwprof-wpp: whole-program paths and strata (seed 003) from the trace controller's records.
 *
 *   hwprof-wpp analyze  the hierarchy of cycles of a run: tables, summary, indexed file
 *   hwprof-wpp blocks   the basic-block stream rebuilt from a trace file (binary or text)
 *   hwprof-wpp query    records of an indexed file by instruction, path number or unit
 *   hwprof-wpp probes   the hash tables' cost under each organisation (key_probes.h)
 *
 * docs/wpp.md describes the files, the method and the figures. Exit status: 0; 1 the input is
 * malformed or incomplete; 2 bad arguments. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "block_stream.h"
#include "cycles.h"
#include "hwprof_elf.h"
#include "key_probes.h"
#include "rv32_disasm.h"
#include "sequitur.h"
#include "trace_file.h"
#include "wpp_index.h"
#include "wpp_tables.h"
#include "zipf_stream.h"

static void usage(FILE *to) {
  fprintf(to,
          "usage: hwprof-wpp COMMAND [options]\n"
          "Whole-program paths and strata (seed 003) from the hwprof trace controller's records (docs/wpp.md).\n\n"
          "commands:\n"
          "  analyze (--trace=FILE --elf=ELF | --blocks=FILE [--elf=ELF]) [--out=PREFIX] [table options]\n"
          "      builds paths, repeated paths, strata and stratum layers from the block stream and writes\n"
          "      PREFIX.blocks.txt, PREFIX.paths.txt, PREFIX.strata.txt, PREFIX.layer0.txt, ... (hottest\n"
          "      first), PREFIX.log (the summary, also printed) and PREFIX.idx (the indexed run file)\n"
          "  blocks --trace=FILE --elf=ELF (--out=FILE | --text [--disasm])\n"
          "      the block stream rebuilt from a trace file: a block file, or one 'address instructions\n"
          "      function+offset' line per block (with --disasm, followed by its instructions)\n"
          "  query FILE.idx (--insn=N | --path-number=N | --unit=LEVEL:ID)\n"
          "      the runs covering instruction N, the run holding path traversal N (1-based), or every run\n"
          "      of a unit (LEVEL: paths, strata, layer0, ...); tools/plot_wpp.py PREFIX OUT.png draws the\n"
          "      phase timeline of an analysis\n"
          "  probes (--trace=FILE --elf=ELF | --blocks=FILE | --synthetic=KEYS,LOOKUPS,PHASES[,S]) [table options]\n"
          "      the same analysis once per table organisation: chains in insertion order (none-tail,\n"
          "      none-head), move to the front on a hit (mtf), bounded sorting, every bucket sorted every\n"
          "      period (full), chains doubled past one entry per bucket (grow), open addressing at most\n"
          "      half full (open); one line per table: probes, upkeep work (sorting, moves, rehashing) and\n"
          "      their sum per lookup. With --trace also the table of seed 002's Figure 8 handler (a lookup\n"
          "      per record, keyed by start and history). --synthetic: instead, one table fed KEYS keys (a\n"
          "      power of two) in LOOKUPS lookups, each of PHASES stretches drawing from a Zipf law of\n"
          "      exponent S (default 1) through its own permutation of the keys (--seed=N, default 0)\n\n"
          "table options:\n"
          "  --levels=N        1 paths, 2 + strata, 3 + stratum layer 0, ... up to %u (default 4)\n"
          "  --sort=S          none, bounded (default), full or mtf (move to the front on every hit)\n"
          "  --buckets=N       buckets per hash table, a power of two (default 256)\n"
          "  --period=N        lookups of a table between its sorts (default 16384)\n"
          "  --depth=N         bounded: sort only buckets of more than N entries (default 4)\n"
          "  --freq=N          bounded: move only entries accessed more than N times in the period (default 64)\n"
          "  --phase-factor=F  report a phase change when a sort puts an entry with F times the accesses\n"
          "                    ahead of one that was hot at the previous sort (default 10)\n"
          "  --insert=head|tail  where a chain takes a new entry (default tail)\n"
          "  --grow=N          double the buckets when a table holds more than N entries per bucket\n"
          "                    (default 0: never)\n"
          "  --table=chained|open  chains (default) or open addressing (linear probing, doubled when\n"
          "                    more than half full; --buckets slots to start; no sorting)\n"
          "  --progress        progress on stderr (default: when stderr is a terminal)\n"
          "  --quiet           no summary on stdout\n"
          "  --help            this text\n"
          "Exit status: 0; 1 malformed or incomplete input; 2 bad arguments.\n",
          WPP_MAX_LEVELS);
}

typedef struct {
  const char *trace, *elf, *blocks, *out, *index;
  bool text, quiet, progress, disasm;
  wpp_cfg_t cfg;
  uint64_t q_insn, q_path;
  const char *q_unit;
  int query;
  bool sort_given;
  bool synthetic; /* probes: the synthetic stream (zipf_stream.h) */
  uint64_t syn_keys, syn_lookups, syn_seed;
  uint32_t syn_phases;
  double syn_s;
} opts_t;

static int parse_u32(const char *arg, const char *s, uint64_t min, uint64_t max, uint32_t *out) {
  char *end = NULL;
  errno = 0;
  unsigned long long v = *s && *s != '-' ? strtoull(s, &end, 0) : 0;
  if (!*s || *s == '-' || errno || *end || v < min || v > max) {
    fprintf(stderr, "hwprof-wpp: error: argument '%s': expects an integer in %" PRIu64 "..%" PRIu64 "\n", arg, min, max);
    return -1;
  }
  *out = (uint32_t)v;
  return 0;
}

static int parse_u64(const char *arg, const char *s, uint64_t *out) {
  char *end = NULL;
  errno = 0;
  unsigned long long v = *s && *s != '-' ? strtoull(s, &end, 0) : 0;
  if (!*s || *s == '-' || errno || *end) {
    fprintf(stderr, "hwprof-wpp: error: argument '%s': expects a non-negative integer\n", arg);
    return -1;
  }
  *out = v;
  return 0;
}

/* --synthetic=KEYS,LOOKUPS,PHASES[,S] */
static int parse_synthetic(const char *arg, const char *s, opts_t *o) {
  unsigned long long keys, lookups;
  unsigned phases;
  double zs = 1.0;
  int used = 0;
  const int got = sscanf(s, "%llu,%llu,%u%n,%lf%n", &keys, &lookups, &phases, &used, &zs, &used);
  if (got < 3 || s[used] != '\0' || keys < 16 || keys > (1u << 26) || (keys & (keys - 1u)) || lookups == 0 ||
      phases == 0 || phases > lookups || !(zs > 0.0 && zs <= 4.0)) {
    fprintf(stderr,
            "hwprof-wpp: error: argument '%s': expects KEYS,LOOKUPS,PHASES[,S]: KEYS a power of two in 16..2^26, "
            "1 <= PHASES <= LOOKUPS, 0 < S <= 4\n",
            arg);
    return -1;
  }
  o->synthetic = true;
  o->syn_keys = keys;
  o->syn_lookups = lookups;
  o->syn_phases = phases;
  o->syn_s = zs;
  return 0;
}

static int parse_opts(int argc, char **argv, int first, opts_t *o) {
  for (int i = first; i < argc; i++) {
    const char *a = argv[i];
    uint32_t v;
#define VALUE(opt) (!strncmp(a, opt "=", sizeof opt) ? a + sizeof opt : NULL)
    const char *s;
    if ((s = VALUE("--trace")) && *s) o->trace = s;
    else if ((s = VALUE("--elf")) && *s) o->elf = s;
    else if ((s = VALUE("--blocks")) && *s) o->blocks = s;
    else if ((s = VALUE("--out")) && *s) o->out = s;
    else if ((s = VALUE("--levels"))) {
      if (parse_u32(a, s, 1, WPP_MAX_LEVELS, &o->cfg.levels)) return -1;
    } else if ((s = VALUE("--sort"))) {
      if (!strcmp(s, "none")) o->cfg.table.sort = kWppSortNone;
      else if (!strcmp(s, "bounded")) o->cfg.table.sort = kWppSortBounded;
      else if (!strcmp(s, "full")) o->cfg.table.sort = kWppSortFull;
      else if (!strcmp(s, "mtf")) o->cfg.table.sort = kWppSortMtf;
      else {
        fprintf(stderr, "hwprof-wpp: error: argument '%s': expects none, bounded, full or mtf\n", a);
        return -1;
      }
      o->sort_given = true;
    } else if ((s = VALUE("--table"))) {
      if (strcmp(s, "chained") && strcmp(s, "open")) {
        fprintf(stderr, "hwprof-wpp: error: argument '%s': expects chained or open\n", a);
        return -1;
      }
      o->cfg.table.open = !strcmp(s, "open");
    } else if ((s = VALUE("--grow"))) {
      if (parse_u32(a, s, 0, 1u << 16, &o->cfg.table.grow_load)) return -1;
    } else if ((s = VALUE("--synthetic"))) {
      if (parse_synthetic(a, s, o)) return -1;
    } else if ((s = VALUE("--seed"))) {
      if (parse_u64(a, s, &o->syn_seed)) return -1;
    } else if ((s = VALUE("--buckets"))) {
      if (parse_u32(a, s, 1, 1u << 24, &v)) return -1;
      if (v & (v - 1u)) {
        fprintf(stderr, "hwprof-wpp: error: argument '%s': expects a power of two\n", a);
        return -1;
      }
      o->cfg.table.buckets = v;
    } else if ((s = VALUE("--period"))) {
      if (parse_u32(a, s, 1, UINT32_MAX, &o->cfg.table.period)) return -1;
    } else if ((s = VALUE("--depth"))) {
      if (parse_u32(a, s, 0, UINT32_MAX, &o->cfg.table.depth_threshold)) return -1;
    } else if ((s = VALUE("--freq"))) {
      if (parse_u32(a, s, 0, UINT32_MAX, &o->cfg.table.freq_threshold)) return -1;
    } else if ((s = VALUE("--phase-factor"))) {
      if (parse_u32(a, s, 1, 1u << 20, &o->cfg.table.phase_factor)) return -1;
    } else if ((s = VALUE("--insert"))) {
      if (strcmp(s, "head") && strcmp(s, "tail")) {
        fprintf(stderr, "hwprof-wpp: error: argument '%s': expects head or tail\n", a);
        return -1;
      }
      o->cfg.table.insert_head = !strcmp(s, "head");
    } else if ((s = VALUE("--insn"))) {
      if (parse_u64(a, s, &o->q_insn)) return -1;
      o->query = 1;
    } else if ((s = VALUE("--path-number"))) {
      if (parse_u64(a, s, &o->q_path)) return -1;
      o->query = 2;
    } else if ((s = VALUE("--unit")) && *s) {
      o->q_unit = s;
      o->query = 3;
    } else if (!strcmp(a, "--text")) o->text = true;
    else if (!strcmp(a, "--disasm")) o->disasm = true;
    else if (!strcmp(a, "--quiet")) o->quiet = true;
    else if (!strcmp(a, "--progress")) o->progress = true;
    else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      exit(0);
    } else if (a[0] != '-' && o->index == NULL) o->index = a;
    else {
      fprintf(stderr, "hwprof-wpp: error: %s argument '%s' (see --help)\n", a[0] == '-' ? "unknown" : "unexpected", a);
      return -1;
    }
#undef VALUE
  }
  if (o->cfg.table.open && o->cfg.table.sort != kWppSortNone) {
    if (o->sort_given) {
      fprintf(stderr, "hwprof-wpp: error: --table=open has no chains to sort: give --sort=none or leave --sort out\n");
      return -1;
    }
    o->cfg.table.sort = kWppSortNone;
  }
  if (o->cfg.table.open && o->cfg.table.buckets < 2u) {
    fprintf(stderr, "hwprof-wpp: error: --table=open needs --buckets=2 or more\n");
    return -1;
  }
  return 0;
}

/* ---------------------------------------------------------------- the block stream */

typedef struct {
  hwprof_elf_t elf;
  bool have_elf;
  wpp_symtab_t syms;
  hwprof_bkf_t blocks;
  hwprof_trf_t trf; /* the records, when the input is a trace file */
} input_t;

static void progress_cb(void *ctx, uint64_t done, uint64_t total) {
  fprintf(stderr, "\rhwprof-wpp: %s: %" PRIu64 "/%" PRIu64 " (%.0f%%)%s", (const char *)ctx, done, total,
          total ? 100.0 * (double)done / (double)total : 100.0, done == total ? "\n" : "");
}

static int by_addr(const void *a, const void *b) {
  const wpp_sym_t *x = a, *y = b;
  return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int load_symbols(input_t *in) {
  size_t n = 0;
  for (unsigned i = 0; i < in->elf.nsym; i++) n += in->elf.sym[i].type == 2 && in->elf.sym[i].name[0];
  in->syms.sym = malloc((n ? n : 1) * sizeof *in->syms.sym);
  if (in->syms.sym == NULL) return -1;
  for (unsigned i = 0; i < in->elf.nsym; i++)
    if (in->elf.sym[i].type == 2 && in->elf.sym[i].name[0])
      in->syms.sym[in->syms.n++] = (wpp_sym_t){in->elf.sym[i].value, in->elf.sym[i].size, in->elf.sym[i].name};
  qsort(in->syms.sym, in->syms.n, sizeof *in->syms.sym, by_addr);
  return 0;
}

static void free_input(input_t *in) {
  free(in->syms.sym);
  hwprof_bkf_free(&in->blocks);
  hwprof_trf_free(&in->trf);
  if (in->have_elf) hwprof_elf_free(&in->elf);
}

/* The block stream of a trace file (with its program) or of a block file. 0, 1 (bad input), 2. */
static int load_input(const opts_t *o, input_t *in) {
  memset(in, 0, sizeof *in);
  char err[600];
  if (!o->trace == !o->blocks) {
    fprintf(stderr, "hwprof-wpp: error: give --trace=FILE with --elf=ELF, or --blocks=FILE (see --help)\n");
    return 2;
  }
  if (o->trace && !o->elf) {
    fprintf(stderr, "hwprof-wpp: error: --trace needs --elf: the program whose records they are\n");
    return 2;
  }
  if (o->elf) {
    if (hwprof_elf_read(&in->elf, o->elf, HWPROF_ELF_SYMBOLS, err, sizeof err) != 0) {
      fprintf(stderr, "hwprof-wpp: error: %s\n", err);
      return 1;
    }
    in->have_elf = true;
    if (load_symbols(in) != 0) {
      fprintf(stderr, "hwprof-wpp: error: out of memory\n");
      return 1;
    }
  }
  if (o->blocks) {
    if (hwprof_bkf_load(&in->blocks, o->blocks, err, sizeof err) != 0) {
      fprintf(stderr, "hwprof-wpp: error: %s\n", err);
      return 1;
    }
    return 0;
  }
  hwprof_image_t img;
  hwprof_trf_t *t = &in->trf;
  if (hwprof_elf_image(&in->elf, &img, err, sizeof err) != 0) {
    fprintf(stderr, "hwprof-wpp: error: %s: %s\n", o->elf, err);
    return 1;
  }
  if (hwprof_trf_load(t, o->trace, err, sizeof err) != 0) {
    fprintf(stderr, "hwprof-wpp: error: %s\n", err);
    return 1;
  }
  if (t->entry_pc != img.entry) {
    fprintf(stderr, "hwprof-wpp: error: %s: recorded from a program entered at 0x%08" PRIx32 ", but %s is entered at 0x%08" PRIx32 "\n",
            o->trace, t->entry_pc, o->elf, img.entry);
    return 1;
  }
  const int rc = wpp_blocks_from_traces(t, o->trace, &img, &in->blocks, o->progress ? progress_cb : NULL,
                                        (void *)"rebuilding blocks from traces", err, sizeof err);
  if (rc != 0) {
    fprintf(stderr, "hwprof-wpp: error: %s\n", err);
    return 1;
  }
  return 0;
}

/* ---------------------------------------------------------------- commands */

/* The whole-program path: the path traversals in order, and their SEQUITUR grammar. */
typedef struct {
  sq_t *g;
  uint32_t *seq;
  uint64_t n, cap;
  bool failed;
} wpp_grammar_t;

static void on_path(void *ctx, uint32_t path) {
  wpp_grammar_t *x = ctx;
  if (x->failed) return;
  if (x->n == x->cap) {
    const uint64_t cap = x->cap ? 2 * x->cap : 1u << 16;
    uint32_t *g = realloc(x->seq, cap * sizeof *g);
    if (g == NULL) {
      x->failed = true;
      return;
    }
    x->seq = g;
    x->cap = cap;
  }
  x->seq[x->n++] = path;
  if (sq_append(x->g, path) != 0) x->failed = true;
}

typedef struct {
  const uint32_t *want;
  uint64_t n, bad;
} expand_cmp_t;

static void expand_cmp(void *ctx, uint32_t t) {
  expand_cmp_t *c = ctx;
  c->bad += t != c->want[c->n];
  c->n++;
}

static unsigned bits_for(uint64_t values) {
  unsigned b = 1;
  while (b < 64 && (1ull << b) < values) b++;
  return b;
}

/* The grammar's summary line, after checking it: it must expand to the traversals exactly and keep
 * SEQUITUR's two properties. Its size in bits: each right-hand-side symbol a path ID or a rule, at
 * the bits that many values need; the raw path trace: each traversal at the bits of the path IDs. */
static int grammar_summary(const wpp_grammar_t *x, const wpp_t *w, char *line, size_t linelen, char *err, size_t errlen) {
  sq_stats_t st;
  sq_stats(x->g, &st);
  expand_cmp_t c = {x->seq, 0, 0};
  char why[200];
  if (x->failed) return snprintf(err, errlen, "out of memory building the grammar"), -1;
  if (sq_check(x->g, why, sizeof why) != 0) return snprintf(err, errlen, "the grammar breaks SEQUITUR's rules: %s", why), -1;
  if (sq_expand(x->g, expand_cmp, &c) != x->n || c.bad)
    return snprintf(err, errlen, "the grammar does not expand to the path traversals"), -1;
  const uint64_t paths = w->level[0].nunit, insns = w->now;
  const double gbits = (double)st.symbols * bits_for(paths + st.rules), rbits = (double)x->n * bits_for(paths);
  snprintf(line, linelen,
          "grammar: SEQUITUR over the %" PRIu64 " path traversals: %" PRIu64 " rules, %" PRIu64 " symbols, %.0f bits "
          "(%.4f bits per instruction) against %.0f bits for the path trace (%.4f bits per instruction), %.1fx smaller; "
          "expands to the traversals exactly\n",
          x->n, st.rules, st.symbols, gbits, insns ? gbits / (double)insns : 0.0, rbits,
          insns ? rbits / (double)insns : 0.0, gbits > 0 ? rbits / gbits : 0.0);
  return 0;
}

/* PREFIX.grammar.txt: the grammar's rules, R0 the start rule (sequitur.h) */
static int write_grammar(const wpp_grammar_t *x, const char *prefix, char *err, size_t errlen) {
  char path[512];
  if ((size_t)snprintf(path, sizeof path, "%s.grammar.txt", prefix) >= sizeof path)
    return snprintf(err, errlen, "--out: the prefix is too long"), -1;
  FILE *f = fopen(path, "w");
  if (f == NULL) return snprintf(err, errlen, "%.500s: cannot write: %s", path, strerror(errno)), -1;
  fprintf(f, "# hwprof-wpp grammar: SEQUITUR over the path traversals; terminals are path IDs (PREFIX.paths.txt)\n");
  sq_write(x->g, f);
  if (fclose(f) != 0) return snprintf(err, errlen, "%.500s: write error", path), -1;
  return 0;
}

static int run_analysis(const opts_t *o, const input_t *in, wpp_t *w, bool keep_runs, const char *what,
                        wpp_grammar_t *grammar) {
  wpp_cfg_t cfg = o->cfg;
  cfg.keep_runs = keep_runs;
  if (grammar) {
    cfg.on_path = on_path;
    cfg.on_path_ctx = grammar;
  }
  if (wpp_init(w, &cfg) != 0) {
    fprintf(stderr, "hwprof-wpp: error: out of memory\n");
    return 1;
  }
  for (uint64_t i = 0; i < in->blocks.n; i++) {
    if (o->progress && (i & 0xfffffu) == 0) progress_cb((void *)what, i, in->blocks.n);
    wpp_block(w, in->blocks.ev[i].start, in->blocks.ev[i].insns);
  }
  if (o->progress) progress_cb((void *)what, in->blocks.n, in->blocks.n);
  if (wpp_finish(w) != 0) {
    fprintf(stderr, "hwprof-wpp: error: out of memory during the analysis: no result\n");
    wpp_free(w);
    return 1;
  }
  return 0;
}

static int cmd_analyze(const opts_t *o) {
  input_t in;
  int rc = load_input(o, &in);
  if (rc) {
    free_input(&in);
    return rc;
  }
  const char *prefix = o->out ? o->out : "wpp";
  static wpp_t w;
  const clock_t t0 = clock();
  wpp_grammar_t grammar = {sq_new(), NULL, 0, 0, false};
  if (grammar.g == NULL) {
    fprintf(stderr, "hwprof-wpp: error: out of memory\n");
    free_input(&in);
    return 1;
  }
  if ((rc = run_analysis(o, &in, &w, true, "analysing blocks", &grammar)) != 0) {
    sq_free(grammar.g);
    free(grammar.seq);
    free_input(&in);
    return rc;
  }
  const double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  char err[600], path[4096];
  snprintf(path, sizeof path, "%s.idx", prefix);
  char gline[512];
  if (grammar_summary(&grammar, &w, gline, sizeof gline, err, sizeof err) != 0 ||
      wpp_write_tables(&w, prefix, &in.syms, err, sizeof err) != 0 || wpp_index_write(&w, path, err, sizeof err) != 0 ||
      write_grammar(&grammar, prefix, err, sizeof err) != 0) {
    fprintf(stderr, "hwprof-wpp: error: %s\n", err);
    rc = 2;
  } else {
    snprintf(path, sizeof path, "%s.log", prefix);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
      fprintf(stderr, "hwprof-wpp: error: %s: cannot write: %s\n", path, strerror(errno));
      rc = 2;
    } else {
      fprintf(f, "# hwprof-wpp analyze: %s%s%s\n", o->trace ? o->trace : o->blocks, o->elf ? " of " : "", o->elf ? o->elf : "");
      wpp_write_summary(&w, f, &in.syms);
      fputs(gline, f);
      if (fclose(f) != 0) rc = 2;
    }
    if (!o->quiet) {
      wpp_write_summary(&w, stdout, &in.syms);
      fputs(gline, stdout);
      printf("analysis: %.2f s, %.1f M blocks/s; tables %s.*.txt, summary %s.log, index %s.idx\n", secs,
             secs > 0 ? (double)w.block_events / secs / 1e6 : 0.0, prefix, prefix, prefix);
    }
  }
  wpp_free(&w);
  sq_free(grammar.g);
  free(grammar.seq);
  free_input(&in);
  return rc;
}

static int cmd_blocks(const opts_t *o) {
  if (!o->trace || (!o->out && !o->text)) {
    fprintf(stderr, "hwprof-wpp: error: blocks needs --trace=FILE --elf=ELF and --out=FILE or --text\n");
    return 2;
  }
  input_t in;
  int rc = load_input(o, &in);
  if (rc == 0 && o->out) {
    hwprof_bkf_writer_t bw;
    char err[600];
    if (hwprof_bkf_create(&bw, o->out, err, sizeof err) != 0) {
      fprintf(stderr, "hwprof-wpp: error: %s\n", err);
      rc = 2;
    } else {
      int bad = 0;
      for (uint64_t i = 0; i < in.blocks.n; i++) bad |= hwprof_bkf_put(&bw, in.blocks.ev[i].start, in.blocks.ev[i].insns);
      if (hwprof_bkf_finish(&bw) != 0 || bad) {
        fprintf(stderr, "hwprof-wpp: error: %s: write error\n", o->out);
        rc = 2;
      } else if (!o->quiet) {
        printf("%" PRIu64 " blocks, %" PRIu64 " instructions in %s\n", in.blocks.n, in.blocks.insns, o->out);
      }
    }
  } else if (rc == 0) {
    char where[96], text[64];
    hwprof_image_t img;
    if (o->disasm && hwprof_elf_image(&in.elf, &img, text, sizeof text) != 0) img.nseg = 0;
    for (uint64_t i = 0; i < in.blocks.n; i++) {
      const hwprof_block_ev_t *b = &in.blocks.ev[i];
      printf("0x%08" PRIx32 " %" PRIu32 " %s\n", b->start, b->insns, wpp_sym_name(&in.syms, b->start, where, sizeof where));
      for (uint32_t k = 0; o->disasm && k < b->insns; k++) {
        uint32_t pc = b->start + 4u * k, insn;
        if (hwprof_image_fetch(&img, pc, &insn)) printf("    %08" PRIx32 ":  %08" PRIx32 "  %s\n", pc, insn, rv32_disasm(pc, insn, text, sizeof text));
      }
    }
  }
  free_input(&in);
  return rc;
}

static void print_run(const wpp_index_t *x, unsigned k, uint64_t r) {
  char name[16];
  const wpp_run_t *p = &x->level[k].run[r];
  printf("%s\trecord %" PRIu64 "\tunit %" PRIu32 "\ttrips %" PRIu32 "\tinstructions [%" PRIu64 ", %" PRIu64
         ")\tpath traversals to its end %" PRIu64 "\n",
         wpp_level_name(k, name, sizeof name), r, p->unit, p->trips, p->start, p->end, p->path_end);
}

static int cmd_query(const opts_t *o) {
  if (!o->index || !o->query) {
    fprintf(stderr, "hwprof-wpp: error: query needs FILE.idx and one of --insn, --path-number, --unit (see --help)\n");
    return 2;
  }
  wpp_index_t x;
  char err[600];
  if (wpp_index_load(&x, o->index, err, sizeof err) != 0) {
    fprintf(stderr, "hwprof-wpp: error: %s\n", err);
    return 1;
  }
  int rc = 0;
  if (o->query == 1 || o->query == 2) {
    uint64_t insn = o->q_insn;
    if (o->query == 2) {
      int64_t r = wpp_index_at_path(&x, o->q_path);
      if (r < 0) {
        fprintf(stderr, "hwprof-wpp: error: %s: no path traversal %" PRIu64 " (the run has %" PRIu64 ")\n", o->index,
                o->q_path, x.paths);
        wpp_index_free(&x);
        return 2;
      }
      insn = x.level[0].run[r].start;
    }
    if (insn >= x.insns) {
      fprintf(stderr, "hwprof-wpp: error: %s: no instruction %" PRIu64 " (the run has %" PRIu64 ")\n", o->index, insn,
              x.insns);
      rc = 2;
    }
    for (unsigned k = 0; k < x.levels && rc == 0; k++) {
      int64_t r = wpp_index_at_insn(&x, k, insn);
      if (r >= 0) print_run(&x, k, (uint64_t)r);
    }
  } else {
    char level[16];
    uint32_t id;
    const char *colon = strchr(o->q_unit, ':');
    unsigned k = WPP_MAX_LEVELS;
    if (colon && (size_t)(colon - o->q_unit) < sizeof level) {
      memcpy(level, o->q_unit, (size_t)(colon - o->q_unit));
      level[colon - o->q_unit] = '\0';
      for (unsigned j = 0; j < x.levels; j++) {
        char name[16];
        if (!strcmp(level, wpp_level_name(j, name, sizeof name))) k = j;
      }
    }
    if (k == WPP_MAX_LEVELS || parse_u32("--unit", colon + 1, 0, UINT32_MAX, &id) != 0) {
      fprintf(stderr, "hwprof-wpp: error: argument '--unit=%s': expects LEVEL:ID with a level of the file\n", o->q_unit);
      rc = 2;
    } else {
      uint64_t first, n = wpp_index_of_unit(&x, k, id, &first);
      for (uint64_t i = 0; i < n; i++) print_run(&x, k, x.level[k].by_unit[first + i]);
      if (n == 0) printf("no runs of %s %" PRIu32 "\n", level, id);
    }
  }
  wpp_index_free(&x);
  return rc;
}

/* Seed 002's Figure 8 handler counts every record in a table keyed by (start, history): the same
 * stream of records through each organisation (open addressing is what the firmware uses). */
static uint64_t record_key(void *ctx, uint64_t i) {
  const hwprof_trf_rec_t *r = &((const hwprof_trf_t *)ctx)->rec[i];
  return (uint64_t)r->start << 32 | r->hist;
}

static uint64_t zipf_key(void *ctx, uint64_t i) {
  (void)i;
  return wpp_zipf_next(ctx);
}

/* The synthetic stream at the seed's scale through each organisation: one table, no analysis. */
static int probe_synthetic(const opts_t *o) {
  wpp_zipf_t z;
  if (wpp_zipf_init(&z, o->syn_keys, o->syn_lookups, o->syn_phases, o->syn_s, o->syn_seed) != 0) {
    fprintf(stderr, "hwprof-wpp: error: out of memory for the synthetic stream\n");
    return 1;
  }
  printf("# synthetic: %" PRIu64 " keys, %" PRIu64 " lookups in %" PRIu32 " phases, Zipf s=%.2f, seed %" PRIu64 "\n",
         o->syn_keys, o->syn_lookups, o->syn_phases, o->syn_s, o->syn_seed);
  wpp_probe_header(stdout);
  int rc = 0;
  for (unsigned m = 0; m < wpp_nmodes && rc == 0; m++) {
    const wpp_table_cfg_t c = wpp_mode_cfg(&wpp_modes[m], &o->cfg.table);
    wpp_zipf_rewind(&z);
    if (o->progress) fprintf(stderr, "hwprof-wpp: synthetic stream, %s\n", wpp_modes[m].name);
    if (wpp_probe_keys(stdout, wpp_modes[m].name, "synthetic", &c, z.lookups, zipf_key, &z) != 0) {
      fprintf(stderr, "hwprof-wpp: error: out of memory\n");
      rc = 1;
    }
  }
  wpp_zipf_free(&z);
  return rc;
}

static int cmd_probes(const opts_t *o) {
  if (o->synthetic) {
    if (o->trace || o->blocks || o->elf) {
      fprintf(stderr, "hwprof-wpp: error: --synthetic takes no --trace, --blocks or --elf\n");
      return 2;
    }
    return probe_synthetic(o);
  }
  input_t in;
  int rc = load_input(o, &in);
  if (rc) {
    free_input(&in);
    return rc;
  }
  wpp_probe_header(stdout);
  for (unsigned m = 0; m < wpp_nmodes && rc == 0; m++) {
    opts_t mo = *o;
    mo.cfg.table = wpp_mode_cfg(&wpp_modes[m], &o->cfg.table);
    static wpp_t w;
    const clock_t t0 = clock();
    if ((rc = run_analysis(&mo, &in, &w, false, wpp_modes[m].name, NULL)) != 0) break;
    const double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    wpp_probe_row(stdout, wpp_modes[m].name, &w.blocks, secs);
    for (unsigned k = 0; k < w.cfg.levels; k++) wpp_probe_row(stdout, wpp_modes[m].name, &w.level[k].table, secs);
    wpp_free(&w);
    if (o->trace && wpp_probe_keys(stdout, wpp_modes[m].name, "traces", &mo.cfg.table, in.trf.nrec, record_key,
                                   &in.trf) != 0) {
      fprintf(stderr, "hwprof-wpp: error: out of memory\n");
      rc = 1;
    }
  }
  free_input(&in);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  opts_t o = {0};
  o.cfg = (wpp_cfg_t){.levels = 4, .table = {kWppSortBounded, 256, 16384, 4, 64, 10, false, 0, false}};
  o.progress = isatty(2);
  if (parse_opts(argc, argv, 2, &o) != 0) return 2;
  const char *cmd = argv[1];
  if (strcmp(cmd, "query") && o.index) {
    fprintf(stderr, "hwprof-wpp: error: unexpected argument '%s' (see --help)\n", o.index);
    return 2;
  }
  if (!strcmp(cmd, "analyze")) return cmd_analyze(&o);
  if (!strcmp(cmd, "blocks")) return cmd_blocks(&o);
  if (!strcmp(cmd, "query")) return cmd_query(&o);
  if (!strcmp(cmd, "probes")) return cmd_probes(&o);
  fprintf(stderr, "hwprof-wpp: error: unknown command '%s' (analyze, blocks, query, probes; see --help)\n", cmd);
  return 2;
}
