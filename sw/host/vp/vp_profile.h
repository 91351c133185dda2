/* Reading a load-value profile file (docs/vpf.md): the co-processor firmware's vp-profile.txt
 * or the simple-sampling baseline's vp-samples.txt, each a series of snapshots taken during the run
 * (the last is the profile). Host only. */
#ifndef HWPROF_VP_PROFILE_H
#define HWPROF_VP_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "vp_estimate.h"

typedef enum { kVpCoprocessor, kVpSamples } vp_kind_t;

typedef struct {
  uint32_t pc;
  uint64_t total; /* the samples the load's slots counted (sampling: the load's samples) */
  size_t n, cap;
  vp_value_t *v;  /* each value that was ever active: hits and misses (sampling: its samples, 0) */
  unsigned line;  /* where the file gives it */
} vp_prof_load_t;

typedef struct {
  uint64_t instructions, overhead; /* where in the run the snapshot was taken (0 0: unknown) */
  vp_prof_load_t *loads;
  size_t n, cap;
} vp_snapshot_t;

typedef struct {
  vp_kind_t kind;
  vp_snapshot_t *snap; /* at least one */
  size_t nsnap;
} vp_profile_t;

/* Reads path: a line 'snapshot <instructions> <overhead>' starts a new profile of the same run; a
 * file without such lines is one profile. Returns 0, or -1 with a one-line reason naming the file
 * and line in err (nothing to free then). */
int vp_profile_read(vp_profile_t *p, const char *path, char *err, size_t errlen);
void vp_profile_free(vp_profile_t *p);
/* The load at pc in a snapshot, or NULL. */
const vp_prof_load_t *vp_profile_load(const vp_snapshot_t *s, uint32_t pc);

#endif /* HWPROF_VP_PROFILE_H */
