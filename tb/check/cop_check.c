/* hwprof-sim --cop-check: the firmware's per-PC load counts against the retire stream (cop_check.h).
 * The rules below are docs/cop.md's ("Front end: filters, prescaler, sample buffer"). */
#include "check/cop_check.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "autogen/hwprof_regs.h"

void cop_check_init(cop_check_t *c, uint32_t reg_base, unsigned bitmask_bits) {
  memset(c, 0, sizeof *c);
  c->reg_base = reg_base;
  c->bitmask_bits = bitmask_bits;
  c->kinds = 0xffu; /* KINDS' reset value: every kind */
}

void cop_check_free(cop_check_t *c) {
  free(c->pcs);
  c->pcs = NULL;
}

/* the four hashes of the word address w = pc >> 2 */
static uint32_t pc_hash(unsigned which, uint32_t pc) {
  const uint32_t w = pc >> 2;
  switch (which & 3u) {
    case 0: return w;
    case 1: return w ^ (w >> 12);
    case 2: return w ^ (w >> 7) ^ (w >> 15);
    default: return w ^ (w >> 5) ^ (w >> 11) ^ (w >> 17);
  }
}

static cop_check_pc_t *slot(cop_check_t *c, uint32_t pc) {
  if (2 * (c->used + 1) > c->cap) {
    size_t cap = c->cap ? 2 * c->cap : 1024;
    cop_check_pc_t *t = calloc(cap, sizeof *t);
    if (t == NULL) return NULL;
    for (size_t k = 0; k < c->cap; k++) {
      if (c->pcs[k].chosen == 0 && c->pcs[k].counted == 0) continue;
      size_t h = (c->pcs[k].pc >> 2) & (cap - 1);
      while (t[h].chosen || t[h].counted) h = (h + 1) & (cap - 1);
      t[h] = c->pcs[k];
    }
    free(c->pcs);
    c->pcs = t;
    c->cap = cap;
  }
  size_t h = (pc >> 2) & (c->cap - 1);
  while (c->pcs[h].chosen || c->pcs[h].counted) {
    if (c->pcs[h].pc == pc) return &c->pcs[h];
    h = (h + 1) & (c->cap - 1);
  }
  c->pcs[h].pc = pc;
  c->used++;
  return &c->pcs[h];
}

void cop_check_event(cop_check_t *c, const hwprof_retire_ev_t *ev) {
  if (!ev->valid) return;
  /* the filters look at the instruction before its own store could change them */
  const bool enabled = (c->ctrl >> HWPROF_VPF_CTRL_ENABLE_LSB) & 1u;
  if (enabled && ((c->kinds >> (ev->kind & 7u)) & 1u) &&
      ((pc_hash(c->ctrl >> HWPROF_VPF_CTRL_HASH_MM_LSB, ev->pc) ^ c->match) & c->mask) == 0) {
    const uint32_t b = pc_hash(c->ctrl >> HWPROF_VPF_CTRL_HASH_BM_LSB, ev->pc) & (c->bitmask_bits - 1u);
    if (!((c->bitmask[b / 32] >> (b % 32)) & 1u)) {
      c->passed++;
      const bool take = c->count <= 1u;
      c->count = take ? c->prescale : c->count - 1u;
      if (take) {
        cop_check_pc_t *p = slot(c, ev->pc);
        if (p) p->chosen++;
      }
      c->chosen += take;
    }
  }
  /* a word store into the front end's window: the register the program wrote */
  if (ev->kind != HWPROF_KIND_STORE || ((ev->insn >> 12) & 7u) != 2u) return;
  const uint32_t a = ev->addr - c->reg_base;
  const uint32_t v = ev->value;
  switch (a) {
    case HWPROF_VPF_CTRL_ADDR: c->ctrl = v & HWPROF_VPF_CTRL_WMASK; break;
    case HWPROF_VPF_KINDS_ADDR: c->kinds = v & HWPROF_VPF_KINDS_WMASK; break;
    case HWPROF_VPF_MASK_ADDR: c->mask = v; break;
    case HWPROF_VPF_MATCH_ADDR: c->match = v; break;
    case HWPROF_VPF_PRESCALE_ADDR: c->prescale = v & HWPROF_VPF_PRESCALE_WMASK; break;
    case HWPROF_VPF_PRESCALE_COUNT_ADDR: c->count = v & HWPROF_VPF_PRESCALE_COUNT_WMASK; break;
    case HWPROF_VPF_ACTION_ADDR:
      if ((v >> HWPROF_VPF_ACTION_BITMASK_CLEAR_LSB) & 1u) memset(c->bitmask, 0, sizeof c->bitmask);
      break;
    default:
      if (a >= HWPROF_VPF_BITMASK_ADDR && a < HWPROF_VPF_BITMASK_ADDR + 4u * HWPROF_VPF_BITMASK_ENTRIES && a % 4u == 0 &&
          (a - HWPROF_VPF_BITMASK_ADDR) / 4u < c->bitmask_bits / 32u)
        c->bitmask[(a - HWPROF_VPF_BITMASK_ADDR) / 4u] = v;
      break;
  }
}

long cop_check_finish(cop_check_t *c, const char *path, uint64_t dropped, FILE *report) {
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    fprintf(report, "cop check: error: %s: cannot open the firmware's profile (did the program write it? see --out-dir)\n", path);
    return -1;
  }
  char line[256];
  unsigned lineno = 0;
  uint64_t counted = 0;
  long bad = 0;
  unsigned long pcs = 0, end_pcs;
  bool ended = false;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    if (lineno == 1) {
      if (strcmp(line, "# hwprof-cop-profile 2\n") != 0) {
        fprintf(report, "cop check: error: %s:1: not a profile file (expected the line '# hwprof-cop-profile 2')\n", path);
        bad = -1;
        break;
      }
      continue;
    }
    if (line[0] == '#' || line[0] == '\n') continue;
    const char *why = NULL;
    char rest;
    if (strchr(line, '\n') == NULL) why = "truncated (the last line has no end)";
    else if (ended) why = "a line after the end record";
    else if (sscanf(line, "end %lu %c", &end_pcs, &rest) == 1) {
      if (end_pcs != pcs) why = "the end record's count of PCs differs from the file's";
      ended = true;
      if (why == NULL) continue;
    }
    if (why) {
      fprintf(report, "cop check: error: %s:%u: %s\n", path, lineno, why);
      bad = -1;
      break;
    }
    char *end;
    const unsigned long pc = strtoul(line, &end, 16);
    if (end == line || *end != ' ' || pc > UINT32_MAX) {
      fprintf(report, "cop check: error: %s:%u: expected '<hex pc> <count>'\n", path, lineno);
      bad = -1;
      break;
    }
    char *num = end + 1;
    const unsigned long long n = strtoull(num, &end, 10);
    if (end == num || (*end != '\n' && *end != 0) || n == 0) {
      fprintf(report, "cop check: error: %s:%u: expected a positive decimal count after the PC\n", path, lineno);
      bad = -1;
      break;
    }
    cop_check_pc_t *p = slot(c, (uint32_t)pc);
    if (p == NULL || p->counted) {
      fprintf(report, "cop check: error: %s:%u: PC 0x%08lx listed twice\n", path, lineno, pc);
      bad = -1;
      break;
    }
    p->counted = n;
    counted += n;
    pcs++;
  }
  fclose(f);
  if (bad == 0 && !ended) {
    fprintf(report, "cop check: error: %s:%u: truncated: no end record\n", path, lineno);
    bad = -1;
  }
  if (bad < 0) return -1;
  unsigned shown = 0;
  for (size_t k = 0; k < c->cap; k++) {
    const cop_check_pc_t *p = &c->pcs[k];
    if (p->chosen == 0 && p->counted == 0) continue;
    if (dropped == 0 ? p->counted == p->chosen : p->counted <= p->chosen) continue;
    bad++;
    if (shown++ < 8)
      fprintf(report, "cop check: PC 0x%08" PRIx32 ": the firmware counted %" PRIu64 ", the retire stream chose %" PRIu64 "\n",
              p->pc, p->counted, p->chosen);
  }
  const bool totals = counted + dropped == c->chosen;
  fprintf(report,
          "cop check: %zu PCs; %" PRIu64 " instructions chosen by the filter and prescaler rules from the retire stream, %" PRIu64
          " counted by the firmware, %" PRIu64 " dropped: %s, %ld PCs differ\n",
          c->used, c->chosen, counted, dropped, totals ? "totals agree" : "TOTALS DIFFER", bad);
  return bad + (totals ? 0 : 1);
}
