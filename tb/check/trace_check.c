/* The end-to-end trace check; see trace_check.h. */
#include "check/trace_check.h"

#include <stdlib.h>
#include <string.h>

#include "hwprof_recon.h"
#include "autogen/hwprof_regs.h"

void trace_check_setup(uint32_t entry_pc, trace_check_setup_t out[TRACE_CHECK_SETUP_N]) {
  out[0] = (trace_check_setup_t){HWPROF_TRACE_CTRL_CUR_START_ADDR, entry_pc};
  out[1] = (trace_check_setup_t){HWPROF_TRACE_CTRL_CUR_HIST_ADDR, 1}; /* the marker alone */
  out[2] = (trace_check_setup_t){HWPROF_TRACE_CTRL_CTRL_ADDR, 1u << HWPROF_TRACE_CTRL_CTRL_ENABLE_LSB};
}

int trace_check_init(trace_check_t *t, const char *elf, unsigned hist_w, uint32_t entry_pc, FILE *errors,
                     char *err, size_t errlen) {
  memset(t, 0, sizeof *t);
  t->hist_w = hist_w;
  t->errors = errors;
  char why[160];
  if (hwprof_elf_read(&t->elf, elf, 0, err, errlen) != 0) return -1;
  if (hwprof_elf_image(&t->elf, &t->img, why, sizeof why) != 0) {
    snprintf(err, errlen, "%s: %s", elf, why);
    return -1;
  }
  t->cap = 1 << 16;
  t->pcs = malloc(t->cap * sizeof *t->pcs);
  if (t->pcs == NULL || trace_oracle_init(&t->oracle, hist_w, entry_pc) != 0) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  return 0;
}

/* Traces the model ended, and those of them the address-range filter did not collect. */
static uint32_t ended_count(const hwprof_trace_ctrl_state_t *tc) {
  return (uint32_t)(hwprof_prim_counters_get(&tc->stats, HWPROF_TC_ST_BACK) +
                    hwprof_prim_counters_get(&tc->stats, HWPROF_TC_ST_IND) +
                    hwprof_prim_counters_get(&tc->stats, HWPROF_TC_ST_FULL));
}

void trace_check_event(trace_check_t *t, const hwprof_trace_ctrl_state_t *tc, const hwprof_retire_ev_t *ev) {
  t->events++;
  if (t->stopped_at) return;
  if (!tc->regs.ctrl_enable && ev->trap != HWPROF_TRAP_HANDLER && ev->trap != 3u) {
    t->stopped_at = t->events; /* the program's own instruction ran untraced: nothing to compare from here */
    return;
  }
  uint32_t start = 0, hist = 0; /* (the oracle sets them only when a trace ended) */
  bool ended = trace_oracle_feed(&t->oracle, ev, &start, &hist);
  uint32_t now = ended_count(tc), filtered = (uint32_t)hwprof_prim_counters_get(&tc->stats, HWPROF_TC_ST_FILT);
  if (now == t->seen && !ended) return;
  if (ended && now == t->seen + 1 && filtered != t->filtered) { /* not collected: LAST_* keep the previous one */
    t->seen = now;
    t->filtered = filtered;
    t->skipped++;
    return;
  }
  t->checked++;
  const char *why = NULL;
  hwprof_trace_rec_t rec = {tc->last_start, tc->last_hist};
  hwprof_recon_t out = {.pcs = t->pcs, .cap = t->cap};
  hwprof_recon_status_t st = kReconOk;
  if (!ended || now != t->seen + 1) why = "the hardware and the rules disagree on where a trace ends";
  else if (rec.start != start || rec.hist != hist) why = "the record differs from the rules'";
  else if ((st = hwprof_trace_reconstruct(&t->img, &rec, t->hist_w, &out)) != kReconOk)
    why = hwprof_recon_status_str(st);
  else if (out.n != t->oracle.n || memcmp(out.pcs, t->oracle.pcs, out.n * sizeof *out.pcs) != 0)
    why = "the reconstruction differs from the executed instructions";
  t->seen = now;
  t->instrs += t->oracle.n;
  if (why && t->failed++ < 5 && t->errors)
    fprintf(t->errors, "trace check: trace %llu (start 0x%08x, history 0x%08x; expected 0x%08x, 0x%08x): %s\n",
            (unsigned long long)t->checked, (unsigned)rec.start, (unsigned)rec.hist, (unsigned)start,
            (unsigned)hist, why);
}

void trace_check_report(const trace_check_t *t, FILE *f) {
  fprintf(f, "  trace check: %llu traces (%llu instructions) checked, %llu failed", (unsigned long long)t->checked,
          (unsigned long long)t->instrs, (unsigned long long)t->failed);
  if (t->skipped) fprintf(f, ", %llu outside the filter", (unsigned long long)t->skipped);
  if (t->stopped_at)
    fprintf(f, "; stopped at retired instruction %llu, where the program disabled the trace controller",
            (unsigned long long)t->stopped_at);
  fputc('\n', f);
}

void trace_check_free(trace_check_t *t) {
  trace_oracle_free(&t->oracle);
  free(t->pcs);
  hwprof_elf_free(&t->elf);
  memset(t, 0, sizeof *t);
}
