/* Phase 1: breadth-first search over a random graph; phase 2: shortest paths (Dijkstra with an
 * array scan) over the same graph with weights. Checks: BFS depth never exceeds the weighted
 * distance (all weights are >= 1). */
#include "common.h"

#define V 160
#define DEG 4
static uint16_t adj[V][DEG];
static uint8_t w[V][DEG];

int main(void) {
  for (int v = 0; v < V; v++)
    for (int k = 0; k < DEG; k++) {
      adj[v][k] = (uint16_t)(k == 0 ? (uint32_t)(v + 1) % V : wl_rand() % V);
      w[v][k] = (uint8_t)(1 + wl_rand() % 9);
    }
  int depth[V], queue[V], head = 0, tail = 0;
  for (int v = 0; v < V; v++) depth[v] = -1;
  depth[0] = 0;
  queue[tail++] = 0;
  while (head < tail) {
    int u = queue[head++];
    for (int k = 0; k < DEG; k++) {
      int x = adj[u][k];
      if (depth[x] < 0) {
        depth[x] = depth[u] + 1;
        queue[tail++] = x;
      }
    }
  }
  uint32_t dist[V];
  uint8_t done[V] = {0};
  for (int v = 0; v < V; v++) dist[v] = 0xffffffffu;
  dist[0] = 0;
  for (int it = 0; it < V; it++) {
    int u = -1;
    for (int v = 0; v < V; v++)
      if (!done[v] && (u < 0 || dist[v] < dist[u])) u = v;
    done[u] = 1;
    for (int k = 0; k < DEG; k++) {
      int x = adj[u][k];
      if (dist[u] + w[u][k] < dist[x]) dist[x] = dist[u] + w[u][k];
    }
  }
  int ok = tail == V;
  uint32_t h = 2166136261u, maxd = 0;
  for (int v = 0; v < V; v++) {
    ok = ok && depth[v] >= 0 && (uint32_t)depth[v] <= dist[v];
    h = wl_mix(wl_mix(h, (uint32_t)depth[v]), dist[v]);
    if (dist[v] > maxd) maxd = dist[v];
  }
  printf("graph: %d vertices reached, farthest at distance %lu\n", tail, (unsigned long)maxd);
  return wl_finish("graph", h, ok);
}
