/* Phase 1: dense matrix multiply; phase 2: sparse matrix-vector products in CSR form, built from
 * the same matrix with most entries zeroed. Check: the sparse result equals a dense product of
 * the sparsified matrix. */
#include "common.h"

#define M 24
static int32_t a[M][M], b[M][M], c[M][M];
static int32_t val[M * M];
static int16_t col[M * M], rowp[M + 1];

int main(void) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++) {
      a[i][j] = (int32_t)(wl_rand() % 19) - 9;
      b[i][j] = (int32_t)(wl_rand() % 19) - 9;
    }
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++) {
      int32_t s = 0;
      for (int k = 0; k < M; k++) s += a[i][k] * b[k][j];
      c[i][j] = s;
    }
  int nnz = 0;
  for (int i = 0; i < M; i++) {
    rowp[i] = (int16_t)nnz;
    for (int j = 0; j < M; j++) {
      if (wl_rand() % 8) a[i][j] = 0; /* keep about one in eight */
      if (a[i][j]) {
        val[nnz] = a[i][j];
        col[nnz++] = (int16_t)j;
      }
    }
  }
  rowp[M] = (int16_t)nnz;
  int ok = 1;
  uint32_t h = 2166136261u;
  for (int rep = 0; rep < 40; rep++) {
    int32_t x[M], y[M];
    for (int j = 0; j < M; j++) x[j] = c[rep % M][j];
    for (int i = 0; i < M; i++) {
      int32_t s = 0;
      for (int p = rowp[i]; p < rowp[i + 1]; p++) s += val[p] * x[col[p]];
      y[i] = s;
      int32_t d = 0;
      for (int j = 0; j < M; j++) d += a[i][j] * x[j];
      ok = ok && d == s;
    }
    for (int i = 0; i < M; i++) h = wl_mix(h, (uint32_t)y[i]);
  }
  for (int i = 0; i < M; i++) h = wl_mix(h, (uint32_t)c[i][i]);
  printf("matrix: %dx%d dense product, %d nonzeros in the sparse matrix\n", M, M, nnz);
  return wl_finish("matrix", h, ok);
}
