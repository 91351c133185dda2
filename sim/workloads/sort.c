/* Phase 1: sort random data; phase 2: sort nearly sorted data (a few swaps). Insertion sort makes
 * the two phases behave very differently (many vs few inner-loop iterations). */
#include "common.h"

#define N 600
static int32_t a[N];

static void isort(int32_t *v, int n) {
  for (int i = 1; i < n; i++) {
    int32_t x = v[i];
    int j = i - 1;
    while (j >= 0 && v[j] > x) {
      v[j + 1] = v[j];
      j--;
    }
    v[j + 1] = x;
  }
}

static int sorted(const int32_t *v, int n) {
  for (int i = 1; i < n; i++)
    if (v[i - 1] > v[i]) return 0;
  return 1;
}

int main(void) {
  uint32_t h = 2166136261u;
  for (int i = 0; i < N; i++) a[i] = (int32_t)(wl_rand() % 100000u);
  isort(a, N);
  int ok = sorted(a, N);
  for (int i = 0; i < N; i++) h = wl_mix(h, (uint32_t)a[i]);
  for (int k = 0; k < 20; k++) { /* nearly sorted: a few swaps */
    int i = (int)(wl_rand() % N), j = (int)(wl_rand() % N);
    int32_t t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
  for (int round = 0; round < 5; round++) {
    isort(a, N);
    ok = ok && sorted(a, N);
    a[wl_rand() % N] = (int32_t)(wl_rand() % 100000u);
  }
  for (int i = 0; i < N; i++) h = wl_mix(h, (uint32_t)a[i]);
  printf("sort: %d elements, min %ld max %ld\n", N, (long)a[0], (long)a[N - 1]);
  return wl_finish("sort", h, ok);
}
