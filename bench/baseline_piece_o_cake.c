/* baseline_piece_o_cake.c: a bare-minimum piece o' Cake random game loop, only
 * the rule work (no API, no legal-move lists), to put the engine's playout
 * speed in proportion.  Not the same move distribution as random actions. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "gateau/rng.h"
static const int COUNT[8] = {3,4,5,7,8,9,10,11}, DOLLOPS[8] = {1,1,1,2,2,2,2,3};
static int play(gateau_rng *rng, int players) {
    uint8_t deck[57]; int n = 0;
    for (int v = 0; v < 8; v++) for (int k = 0; k < COUNT[v]; k++) deck[n++] = (uint8_t)v;
    for (int i = 56; i > 0; i--) { int j = (int)gateau_rng_below(rng, (uint32_t)i + 1); uint8_t t = deck[i]; deck[i] = deck[j]; deck[j] = t; }
    uint8_t collected[6][8] = {{0}}, eaten[6][8] = {{0}};
    int maxp = players == 2 ? 4 : players, turns = maxp;
    for (int cake = 0; cake < 5; cake++) {
        int server = cake % players;
        /* random cut: k pieces, k-1 random distinct boundaries */
        int k = 1 + (int)gateau_rng_below(rng, (uint32_t)maxp);
        int start[5], len[5]; uint16_t used = 0; int cuts[5], c = 0;
        while (c < k) { int b = (int)gateau_rng_below(rng, 11); if (!(used >> b & 1)) { used |= (uint16_t)(1u << b); cuts[c++] = b; } }
        for (int i = 1; i < c; i++) for (int j = i; j > 0 && cuts[j-1] > cuts[j]; j--) { int t = cuts[j]; cuts[j] = cuts[j-1]; cuts[j-1] = t; }
        for (int i = 0; i < c; i++) { start[i] = cuts[i] + 1; len[i] = (i + 1 < c ? cuts[i+1] : cuts[0] + 11) - cuts[i]; }
        int taken = 0;
        for (int t = 0; t < turns; t++) {
            int seat = (server + 1 + t) % players;
            int choice = (int)gateau_rng_below(rng, (uint32_t)(k + 1));
            if (choice < k && !(taken >> choice & 1)) {
                taken |= 1 << choice;
                for (int s = 0; s < len[choice]; s++) {
                    int v = deck[cake * 11 + (start[choice] + s) % 11];
                    if (gateau_rng_next(rng) & 1) eaten[seat][v]++; else collected[seat][v]++;
                }
            }
        }
    }
    int best = 0;
    for (int s = 0; s < players; s++) {
        int score = 0;
        for (int v = 0; v < 8; v++) {
            int most = 0;
            for (int o = 0; o < players; o++)
                if (collected[o][v] > most) most = collected[o][v];
            if (most && collected[s][v] == most) score += COUNT[v];
            score += eaten[s][v] * DOLLOPS[v];
        }
        if (score > best) best = score;
    }
    return best;
}
int main(void) {
    gateau_rng rng; gateau_rng_seed(&rng, 1);
    for (int p = 2; p <= 5; p++) {
        struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a); long sum = 0; int games = 2000000;
        for (int g = 0; g < games; g++) sum += play(&rng, p);
        clock_gettime(CLOCK_MONOTONIC, &b);
        double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
        printf("%d players: %.0f games/s (%ld)\n", p, games / s, sum);
    }
}
