/* Reading a path profile back; see pp_readback.h and docs/path.md. */
#include "pp_readback.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof_cfg_prog.h"
#include "hwprof_elf.h"
#include "pp_plan.h"
#include "profmap.h"

typedef struct {
  uint32_t idx, count, region;
} counted_t;

/* by region, then hottest first */
static int cmp_counted(const void *x, const void *y) {
  const counted_t *a = x, *b = y;
  if (a->region != b->region) return a->region < b->region ? -1 : 1;
  if (a->count != b->count) return a->count > b->count ? -1 : 1;
  return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* The plan of function fi, remade as the instrumenter made it (an arena grown until it fits). */
static pp_status_t remake(const hwprof_cfg_func_t *cfg, pp_embodiment_t emb, uint8_t **mem, pp_func_t *f, pp_plan_t *p) {
  size_t bytes = ((size_t)64 << 10) + ((size_t)cfg->nblk + cfg->nedge + 8u) * (cfg->nloop + 2u) * 256u;
  pp_status_t st = kPpNoMemory;
  for (int tries = 0; tries < 6 && st == kPpNoMemory; tries++, bytes *= 2) {
    free(*mem);
    if ((*mem = malloc(bytes)) == NULL) return kPpNoMemory;
    hwprof_arena_t a = {*mem, bytes, 0};
    st = pp_plan_cfg(cfg, emb, NULL, &a, f, p); /* the numbering: weights do not change it */
  }
  return st;
}

/* blocks by their start address, a child region as L and its head's */
static void print_items(FILE *out, const uint32_t *items, uint32_t len, const pp_func_t *f, const pp_plan_t *p,
                        const hwprof_cfg_func_t *cfg) {
  for (uint32_t i = 0; i < len; i++) {
    if (items[i] & PP_CHILD) fprintf(out, " L%08" PRIx32, cfg->blk[p->h.rep_entry[items[i] & ~PP_CHILD]].start);
    else if (items[i] < f->g.nnodes - 1u) fprintf(out, " %08" PRIx32, cfg->blk[items[i]].start);
  }
}

#define FAIL(...)                          \
  do {                                     \
    snprintf(err, errlen, __VA_ARGS__);    \
    goto out;                              \
  } while (0)

int pp_readback(const char *map_path, const char *program, pp_read32_fn read32, void *ctx, FILE *out,
                pp_readback_stats_t *st, char *err, size_t errlen) {
  pm_map_t m = {0};
  hwprof_elf_t elf = {0};
  hwprof_cfg_prog_t prog = {0};
  uint8_t *mem = NULL;
  counted_t *nz = NULL;
  uint32_t *items = NULL, *scratch = NULL;
  int rc = -1;
  bool have_elf = false, have_prog = false;
  pp_readback_stats_t s = {0};
  if (pm_read(&m, map_path, err, errlen)) return -1;
  pp_embodiment_t emb;
  if (!strcmp(m.mode, "paths-plain")) emb = kPpPlain;
  else if (!strcmp(m.mode, "paths-rb")) emb = kPpRegionBased;
  else if (!strcmp(m.mode, "paths-gp")) emb = kPpGlobal;
  else FAIL("%s: mode %s: not a map of path profiles (hwprof-instr --paths)", map_path, m.mode);
  if (m.cnt_bytes != 4) FAIL("%s: %u-byte counters: path profiles have 4-byte counters", map_path, m.cnt_bytes);
  if (program == NULL) program = m.program;
  if (hwprof_elf_read(&elf, program, HWPROF_ELF_RELOCATABLE, err, errlen)) goto out;
  have_elf = true;
  if (hwprof_cfg_prog_read(&prog, &elf, err, errlen)) goto out;
  have_prog = true;
  fprintf(out, "hwprof-path-profile 1\nprogram %s\nembodiment %s\n", program,
          emb == kPpPlain ? "plain" : emb == kPpRegionBased ? "rb" : "gp");
  for (unsigned i = 0; i < m.nfn; i++) {
    const pm_func_t *mf = &m.fn[i];
    if (!mf->instrumented) continue;
    const int fi = hwprof_cfg_prog_fn_at(&prog, mf->lo);
    if (fi < 0 || prog.fn[fi].code.lo != mf->lo || strcmp(prog.fn[fi].name, mf->name))
      FAIL("%s: function %s at 0x%08" PRIx32 " of %s is not in %s", program, mf->name, mf->lo, map_path, program);
    if (hwprof_cfg_prog_build(&prog, (unsigned)fi)) FAIL("out of memory");
    const hwprof_cfg_func_t *cfg = &prog.fn[fi].cfg;
    pp_func_t f;
    pp_plan_t p;
    const pp_status_t ps = remake(cfg, emb, &mem, &f, &p);
    if (ps != kPpOk || p.ncounters != mf->ncounters)
      FAIL("%s: %s: its path plan (%s, %u counters) is not the one of %s (%u counters): not the program instrumented",
           program, mf->name, pp_status_str(ps), ps == kPpOk ? p.ncounters : 0u, map_path, mf->ncounters);
    free(nz);
    free(items);
    free(scratch);
    uint32_t maxe = p.emb == kPpGlobal ? p.gn.nedge : 0; /* (a global plan may have fallen back to regions) */
    for (uint32_t r = 0; (p.emb != kPpGlobal || p.hashed) && r < p.h.nregion; r++)
      if (p.rn[r].nedge > maxe) maxe = p.rn[r].nedge;
    nz = malloc(sizeof *nz * (mf->ncounters + 1u));
    items = malloc(sizeof *items * (maxe + 2u));
    scratch = malloc(sizeof *scratch * (maxe + 2u));
    if (nz == NULL || items == NULL || scratch == NULL) FAIL("out of memory");
    uint32_t n = 0;
    for (uint32_t k = 0; k < mf->ncounters; k++) {
      const uint32_t v = read32(ctx, mf->base + 4u * k);
      pp_path_t path;
      if (v == 0) continue;
      if (pp_plan_decode(&p, k, items, maxe + 2u, scratch, maxe + 2u, &path) != kPpOk)
        FAIL("%s: %s: counter %" PRIu32 " (0x%08" PRIx32 ") holds %" PRIu32 " but is not a path of the function",
             map_path, mf->name, k, mf->base + 4u * k, v);
      nz[n++] = (counted_t){k, v, path.region};
    }
    s.functions++;
    s.counters += mf->ncounters;
    qsort(nz, n, sizeof *nz, cmp_counted);
    uint64_t total = 0;
    for (uint32_t k = 0; k < n; k++) total += nz[k].count;
    fprintf(out, "function %s 0x%08" PRIx32 " counters %u regions %" PRIu32 " paths %" PRIu32 " count %" PRIu64 "\n",
            mf->name, mf->lo, mf->ncounters, p.h.nregion, n, total);
    uint32_t region = UINT32_MAX;
    for (uint32_t k = 0; k < n; k++) {
      pp_path_t path;
      if (pp_plan_decode(&p, nz[k].idx, items, maxe + 2u, scratch, maxe + 2u, &path) != kPpOk) FAIL("internal: decode");
      if (path.region != region) {
        region = path.region;
        const uint32_t up = p.h.parent[region];
        fprintf(out, "region %" PRIu32 " head %08" PRIx32 " depth %u parent ", region, cfg->blk[p.h.rep_entry[region]].start,
                pp_plan_depth(&p, region));
        if (up == PP_NONE) fputc('-', out);
        else fprintf(out, "%08" PRIx32, cfg->blk[p.h.rep_entry[up]].start);
        if (p.hashed) fprintf(out, " first 0 counters %u (shared, hashed: %" PRIu64 " sums)\n", p.ncounters, p.gn.paths);
        else if (p.emb == kPpGlobal) fprintf(out, " first 0 counters %" PRIu64 " (shared)\n", p.gn.paths);
        else fprintf(out, " first %" PRIu32 " counters %" PRIu64 "\n", p.start[region], p.rn[region].paths);
      }
      const char *end = path.exit ? "exit" : emb == kPpPlain ? "back" : "end";
      fprintf(out, "path %" PRIu32 " %s", nz[k].count, end);
      print_items(out, items, path.len, &f, &p, cfg);
      fputc('\n', out);
      s.paths++;
      s.count += nz[k].count;
    }
  }
  fprintf(out, "end functions %u counters %" PRIu64 " paths %" PRIu64 " count %" PRIu64 "\n", s.functions, s.counters,
          s.paths, s.count);
  if (st) *st = s;
  rc = 0;
out:
  free(mem);
  free(nz);
  free(items);
  free(scratch);
  if (have_prog) hwprof_cfg_prog_free(&prog);
  if (have_elf) hwprof_elf_free(&elf);
  pm_free(&m);
  return rc;
}
