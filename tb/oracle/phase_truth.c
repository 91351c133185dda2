/* Ground truth for program phases; see phase_truth.h. */
#include "oracle/phase_truth.h"

#include <stdlib.h>
#include <string.h>

int phase_truth_init(phase_truth_t *t, FILE *out, uint64_t window) {
  memset(t, 0, sizeof *t);
  if (out == NULL || window == 0) return -1;
  t->out = out;
  t->window = window;
  t->cap = 1u << 12;
  if ((t->br = calloc(t->cap, sizeof *t->br)) == NULL) return -1;
  fprintf(out, "hwprof-phase-truth 1\nwindow %llu min %u share %u weight %u\n", (unsigned long long)window,
          PHASE_TRUTH_MIN, PHASE_TRUTH_SHARE, PHASE_TRUTH_WEIGHT);
  fprintf(out, "# window START END branches N hot HOT_EDGES added ADDED new OF_THEM_NEW weight PERCENT change 0|1|2\n");
  return 0;
}

static uint32_t slot(const phase_truth_t *t, uint32_t pc) {
  uint32_t i = (pc >> 2) * 2654435761u & (t->cap - 1u);
  while (t->br[i].pc != 0 && t->br[i].pc != pc) i = (i + 1u) & (t->cap - 1u);
  return i;
}

static bool grow(phase_truth_t *t) {
  phase_truth_t g = *t;
  g.cap = 2 * t->cap;
  if ((g.br = calloc(g.cap, sizeof *g.br)) == NULL) return false;
  for (uint32_t i = 0; i < t->cap; i++)
    if (t->br[i].pc) g.br[slot(&g, t->br[i].pc)] = t->br[i];
  free(t->br);
  *t = g;
  return true;
}

/* The window ends: its hot set against the last clear majorities. */
static void close_window(phase_truth_t *t, uint64_t end) {
  uint64_t execs = 0, added_execs = 0, flip_execs = 0;
  uint32_t branches = 0, hot = 0, added = 0, fresh = 0;
  for (uint32_t i = 0; i < t->cap; i++) {
    phase_truth_branch_t *b = &t->br[i];
    const uint64_t n = (uint64_t)b->taken + b->not_taken;
    if (b->pc == 0 || n == 0) continue;
    branches++;
    execs += n;
    if (n >= PHASE_TRUTH_MIN) {
      const uint64_t major = b->taken > b->not_taken ? b->taken : b->not_taken;
      if (100u * major >= PHASE_TRUTH_SHARE * n) {
        const int8_t dir = b->taken > b->not_taken;
        hot++;
        if (dir != b->hot) { /* an edge the last clear majority did not have: a flip, or new code */
          added++;
          added_execs += n;
          if (b->hot < 0) fresh++;
          else flip_execs += n;
        }
        b->hot = dir;
      }
    }
    b->taken = b->not_taken = 0;
  }
  const unsigned weight = execs ? (unsigned)(100u * added_execs / execs) : 0;
  const unsigned flip_weight = execs ? (unsigned)(100u * flip_execs / execs) : 0;
  int change = 0;
  if (t->windows > 0 && added && weight >= PHASE_TRUTH_WEIGHT) change = flip_weight >= PHASE_TRUTH_WEIGHT ? 1 : 2;
  t->changes += change != 0;
  fprintf(t->out, "window %llu %llu branches %u hot %u added %u new %u weight %u change %d\n",
          (unsigned long long)t->start, (unsigned long long)end, branches, hot, added, fresh, weight, change);
  t->windows++;
}

void phase_truth_set_cache(phase_truth_t *t, uint32_t lo, uint32_t hi, const uint8_t *ram, uint32_t ram_base,
                           uint32_t ram_size) {
  t->cc = (cc_origin_t){.lo = lo, .hi = hi, .ram = ram, .ram_base = ram_base, .ram_size = ram_size};
}

static void count_branch(phase_truth_t *t, uint32_t pc, bool taken) {
  if (4u * (t->n + 1u) > 3u * t->cap && !grow(t)) {
    t->failed = true;
    fprintf(t->out, "error out of memory\n");
    return;
  }
  phase_truth_branch_t *b = &t->br[slot(t, pc)];
  if (b->pc == 0) {
    b->pc = pc;
    b->hot = -1;
    t->n++;
  }
  if (taken) b->taken++;
  else b->not_taken++;
}

void phase_truth_event(phase_truth_t *t, const hwprof_retire_ev_t *ev, uint64_t instret) {
  if (t->failed || !ev->valid || (ev->trap & 1u)) return;
  uint32_t pc = ev->pc;
  if (t->cc.hi) { /* a copy's branch went the way its original would have gone to get to the next */
    if ((pc = cc_origin_of(&t->cc, ev->pc)) == 0) return;
    if (t->pending) count_branch(t, t->pending, pc != t->pending + 4u);
    t->pending = 0;
  }
  if (t->in_window == 0) t->start = instret - 1u;
  if (ev->kind == HWPROF_KIND_BRANCH) {
    if (pc != ev->pc) t->pending = pc;
    else count_branch(t, pc, ev->taken);
  }
  if (++t->in_window == t->window) {
    close_window(t, instret);
    t->in_window = 0;
  }
}

void phase_truth_finish(phase_truth_t *t, uint64_t instret) {
  if (!t->failed && t->in_window) close_window(t, instret);
  fprintf(t->out, "end windows %llu changes %llu\n", (unsigned long long)t->windows, (unsigned long long)t->changes);
}

void phase_truth_free(phase_truth_t *t) {
  free(t->br);
  t->br = NULL;
}
