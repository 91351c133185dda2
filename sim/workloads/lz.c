/* Phase 1: LZ77-style compression of generated text (hash-chain-free greedy matcher over a small
 * window); phase 2: decompression, then a byte-exact comparison. */
#include "common.h"

#define N 3000
static uint8_t text[N], packed[2 * N], out[N];

static int compress(const uint8_t *in, int n, uint8_t *dst) {
  int o = 0, i = 0;
  while (i < n) {
    int best = 0, dist = 0;
    for (int d = 1; d <= 255 && d <= i; d++) {
      int l = 0;
      while (l < 255 && i + l < n && in[i + l - d] == in[i + l]) l++;
      if (l > best) {
        best = l;
        dist = d;
      }
    }
    if (best >= 3) {
      dst[o++] = 1;
      dst[o++] = (uint8_t)dist;
      dst[o++] = (uint8_t)best;
      i += best;
    } else {
      dst[o++] = 0;
      dst[o++] = in[i++];
    }
  }
  return o;
}

static int decompress(const uint8_t *src, int n, uint8_t *dst) {
  int o = 0;
  for (int i = 0; i < n;) {
    if (src[i] == 0) {
      dst[o++] = src[i + 1];
      i += 2;
    } else {
      int d = src[i + 1], l = src[i + 2];
      for (int k = 0; k < l; k++, o++) dst[o] = dst[o - d];
      i += 3;
    }
  }
  return o;
}

int main(void) {
  static const char *words[] = {"profile ", "branch ", "counter ", "trace ", "phase ", "the ", "hot ", "edge "};
  int n = 0;
  while (n < N) {
    const char *w = words[wl_rand() % 8];
    while (*w && n < N) text[n++] = (uint8_t)*w++;
  }
  int packed_len = compress(text, N, packed);
  int len = decompress(packed, packed_len, out);
  int ok = len == N;
  uint32_t h = 2166136261u;
  for (int i = 0; i < N && ok; i++) ok = out[i] == text[i];
  for (int i = 0; i < packed_len; i++) h = wl_mix(h, packed[i]);
  printf("lz: %d bytes -> %d bytes -> %d bytes\n", N, packed_len, len);
  return wl_finish("lz", h, ok);
}
