// Machine facts for the fifth version of `warpscope model`'s H100 estimate (docs/accuracy.md,
// "fifth version"): how long a global load served by the L1 takes inside a dependent chain
// (each load's address comes from the one before, as in a binary search or a linked walk), as a
// function of the sectors each warp request touches and of the warps sharing the SM.
//
// v5_chase: every warp follows its own chain through a table of `mask + 1` words that stays in
// the L1; lane `l` of a warp loads word `x + l * spread`, with `x` the same for the warp's lanes:
// spread 0 is one 4-byte word for the whole warp (1 sector), 1 consecutive words (4 sectors), 8
// words 32 bytes apart (32 sectors in 8 lines), 32 words 128 bytes apart (32 sectors in 32
// lines). The table is filled so that all words a request reads hold the same next `x` (a
// multiple of `32 × spread`), so the chain stays warp-uniform and every step is one request of
// that shape whose address depends on the previous one. scripts/h100/model_v5rates.py times it
// with 1, 8 and 64 warps per SM and counts the loop's SASS.
extern "C" __global__ void v5_chase(const unsigned *t, unsigned *out, int steps, unsigned mask,
                                    unsigned spread) {
    unsigned lane = threadIdx.x & 31u;
    unsigned x = ((blockIdx.x * 977u + (threadIdx.x >> 5) * 131u) * 32u * (spread | 1u)) & mask;
    unsigned off = lane * spread;
    for (int k = 0; k < steps; ++k) {
        x = t[(x + off) & mask];
    }
    if (x == 0xffffffffu) out[0] = x;
}
