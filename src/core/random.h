/*
 * random.h - the library's one pseudo-random generator.
 *
 * Randomness here is never for security: it picks a local search's moves
 * and the paths of a tree-size estimate, and a run must be repeatable, so
 * the generator is seeded explicitly and is the same on every machine.
 */
#ifndef NQ_RANDOM_H
#define NQ_RANDOM_H

#include <stdint.h>

/* splitmix64 (Steele, Lea and Flood, 2014): the state steps by a constant
 * and the output is a mix of it, so any seed, 0 included, is good. */
static inline uint64_t nq_random_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in 0..n-1 (n >= 1), by the multiply-shift of the high bits,
 * which avoids a division. */
static inline uint32_t nq_random_below(uint64_t *state, uint32_t n)
{
    return (uint32_t)(((nq_random_next(state) >> 32) * (uint64_t)n) >> 32);
}

/* A random number that is the seed's and the index's alone, in any order
 * they are asked for: what a draw over records read in any order needs
 * (each record's chance its own, the same in every part of a check). */
static inline uint64_t nq_random_keyed(uint64_t seed, uint64_t index)
{
    uint64_t s = seed ^ (index * 0x9e3779b97f4a7c15ull);
    return nq_random_next(&s);
}

#endif
