//! Thirty-two xoshiro256++ streams side by side: a word for each of
//! thirty-two lanes at once, for walks that step as many trials together.
//! The state is laid out stream-major by word (`s[k][lane]`), so a vector kernel loads
//! each of the four state words of eight streams as one register and steps
//! them with the same arithmetic as [`LaneStreams::next_words`].

use super::BatchedRoller;
use super::roller::splitmix;

/// Whether this machine steps eight lanes a vector: it has AVX-512F and
/// `KRUNCH_NO_AVX512` is not set (the switch measures and tests the scalar
/// twins on a machine that has it; the draws are the same either way).
pub fn lanes_by_vector() -> bool {
    static CHOICE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *CHOICE.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        let has = std::arch::is_x86_feature_detected!("avx512f");
        #[cfg(not(target_arch = "x86_64"))]
        let has = false;
        has && std::env::var_os("KRUNCH_NO_AVX512").is_none()
    })
}

/// One xoshiro256++ step of eight streams, their four state words a
/// register each (`g[k]` word `k`): the eight next words, the arithmetic of
/// [`LaneStreams::next_words`] lane by lane. The vector kernels' one copy
/// of the generator.
///
/// # Safety
/// Called from code not itself compiled for AVX-512F, the machine must
/// have it ([`lanes_by_vector`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
pub fn xoshiro_step_avx512(g: &mut [std::arch::x86_64::__m512i; 4]) -> std::arch::x86_64::__m512i {
    use std::arch::x86_64::*;
    let [s0, s1, s2, s3] = g;
    let w = _mm512_add_epi64(_mm512_rol_epi64::<23>(_mm512_add_epi64(*s0, *s3)), *s0);
    let t = _mm512_slli_epi64::<17>(*s1);
    *s2 = _mm512_xor_si512(*s2, *s0);
    *s3 = _mm512_xor_si512(*s3, *s1);
    *s1 = _mm512_xor_si512(*s1, *s2);
    *s0 = _mm512_xor_si512(*s0, *s3);
    *s2 = _mm512_xor_si512(*s2, t);
    *s3 = _mm512_rol_epi64::<45>(*s3);
    w
}

/// Streams a [`LaneStreams`] steps together.
pub const STREAMS: usize = 32;

/// Thirty-two xoshiro256++ generators, each seeded by SplitMix64 from one word
/// of a chunk's roller (as `Xoshiro256PlusPlus::seed_from_u64` seeds), so
/// a chunk's lanes depend only on its own stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneStreams {
    /// `s[k][lane]`: state word `k` of stream `lane`.
    pub s: [[u64; STREAMS]; 4],
}

impl LaneStreams {
    /// The streams seeded from the next [`STREAMS`] words of `roller`.
    pub fn new(roller: &mut BatchedRoller) -> Self {
        let mut s = [[0u64; STREAMS]; 4];
        for lane in 0..STREAMS {
            // SplitMix64 from the word: its k-th output is the mix of the
            // word plus k golden gammas
            let seed = roller.next_word();
            let mut z = seed;
            for word in &mut s {
                word[lane] = splitmix(z);
                z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
            }
        }
        LaneStreams { s }
    }

    /// Fills `out` (a multiple of [`STREAMS`] long) with the streams'
    /// words, a step of every stream a block of [`STREAMS`]: word `i` of a
    /// block from stream `i`. Eight streams a vector where the machine has
    /// AVX-512, else stream by stream; the same words either way.
    pub fn fill_blocks(&mut self, out: &mut [u64]) {
        assert_eq!(out.len() % STREAMS, 0, "whole blocks");
        #[cfg(target_arch = "x86_64")]
        if lanes_by_vector() {
            // SAFETY: the machine has AVX-512F, checked by lanes_by_vector
            unsafe { self.fill_blocks_avx512(out) };
            return;
        }
        for block in out.chunks_exact_mut(STREAMS) {
            block.copy_from_slice(&self.next_words::<STREAMS>(0));
        }
    }

    /// [`LaneStreams::fill_blocks`] eight streams a vector.
    ///
    /// # Safety
    /// The machine must have AVX-512F.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    unsafe fn fill_blocks_avx512(&mut self, out: &mut [u64]) {
        use std::arch::x86_64::*;
        const VECTOR: usize = 8;
        let zero = _mm512_setzero_si512();
        let mut g = [[zero; 4]; STREAMS / VECTOR];
        for (v, g) in g.iter_mut().enumerate() {
            for (word, stream_word) in g.iter_mut().zip(&self.s) {
                // SAFETY: eight u64 of a slice of eight
                *word = unsafe {
                    _mm512_loadu_si512(stream_word[v * VECTOR..][..VECTOR].as_ptr().cast())
                };
            }
        }
        for block in out.chunks_exact_mut(STREAMS) {
            for (v, g) in g.iter_mut().enumerate() {
                let w = xoshiro_step_avx512(g);
                // SAFETY: eight u64 of a slice of eight
                unsafe {
                    _mm512_storeu_si512(block[v * VECTOR..][..VECTOR].as_mut_ptr().cast(), w)
                };
            }
        }
        for (v, g) in g.iter().enumerate() {
            for (stream_word, word) in self.s.iter_mut().zip(g) {
                // SAFETY: eight u64 of a slice of eight
                unsafe {
                    _mm512_storeu_si512(
                        stream_word[v * VECTOR..][..VECTOR].as_mut_ptr().cast(),
                        *word,
                    )
                };
            }
        }
    }

    /// The next word of every stream, lanes `from..from + N`
    /// (xoshiro256++, one step each).
    #[inline(always)]
    pub fn next_words<const N: usize>(&mut self, from: usize) -> [u64; N] {
        let mut out = [0u64; N];
        for (j, o) in out.iter_mut().enumerate() {
            let lane = from + j;
            let [s0, s1, s2, s3] = &mut self.s;
            *o = s0[lane]
                .wrapping_add(s3[lane])
                .rotate_left(23)
                .wrapping_add(s0[lane]);
            let t = s1[lane] << 17;
            s2[lane] ^= s0[lane];
            s3[lane] ^= s1[lane];
            s1[lane] ^= s2[lane];
            s0[lane] ^= s3[lane];
            s2[lane] ^= t;
            s3[lane] = s3[lane].rotate_left(45);
        }
        out
    }
}

/// Words for a hot loop that asks for many at once: the streams' blocks
/// ([`LaneStreams::fill_blocks`]) handed out in order, whatever lengths
/// are asked for, the words drawn counted on the roller that seeded them.
pub struct LaneWords {
    streams: LaneStreams,
    block: [u64; STREAMS],
    /// Words of `block` handed out.
    used: usize,
}

impl LaneWords {
    /// Streams seeded from `roller` ([`LaneStreams::new`]).
    pub fn new(roller: &mut BatchedRoller) -> Self {
        LaneWords {
            streams: LaneStreams::new(roller),
            block: [0; STREAMS],
            used: STREAMS,
        }
    }

    /// Fills `out` with the next words; counts the words drawn from the
    /// streams on `roller`.
    pub fn fill(&mut self, out: &mut [u64], roller: &mut BatchedRoller) {
        let mut out = out;
        // what is left of the last block first
        let take = out.len().min(STREAMS - self.used);
        out[..take].copy_from_slice(&self.block[self.used..self.used + take]);
        self.used += take;
        out = &mut out[take..];
        let whole = out.len() / STREAMS * STREAMS;
        self.streams.fill_blocks(&mut out[..whole]);
        let rest = &mut out[whole..];
        let mut drawn = whole;
        if !rest.is_empty() {
            self.streams.fill_blocks(&mut self.block);
            rest.copy_from_slice(&self.block[..rest.len()]);
            self.used = rest.len();
            drawn += STREAMS;
        }
        roller.count_words(drawn as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Every lane is the xoshiro256++ stream `seed_from_u64` makes of its
    /// seeding word: the lanes are the crate's generator, not a look-alike.
    #[test]
    fn each_lane_is_xoshiro256_plus_plus_seeded_by_its_word() {
        let mut roller = BatchedRoller::new(11, &[3]);
        let mut seeds = BatchedRoller::new(11, &[3]);
        let mut lanes = LaneStreams::new(&mut roller);
        assert_eq!(roller.words(), STREAMS as u64);
        let mut reference: Vec<Xoshiro256PlusPlus> = (0..STREAMS)
            .map(|_| Xoshiro256PlusPlus::seed_from_u64(seeds.next_word()))
            .collect();
        for _ in 0..100 {
            let low: [u64; 8] = lanes.next_words(0);
            let high: [u64; STREAMS - 8] = lanes.next_words(8);
            for (lane, got) in low.iter().chain(&high).enumerate() {
                assert_eq!(*got, reference[lane].next_u64(), "lane {lane}");
            }
        }
    }

    /// Blocks filled by vector (where the machine has AVX-512) are the
    /// streams' words stream by stream, and words asked for in pieces of
    /// any length come in the same order as in one piece.
    #[test]
    fn blocks_and_pieces_give_the_streams_words_in_order() {
        let mut roller = BatchedRoller::new(2, &[8]);
        let mut wide = LaneStreams::new(&mut roller);
        let mut one = wide.clone();
        let mut blocks = vec![0u64; 4 * STREAMS];
        wide.fill_blocks(&mut blocks);
        for block in blocks.chunks_exact(STREAMS) {
            assert_eq!(block, one.next_words::<STREAMS>(0));
        }
        let (mut a, mut b) = (BatchedRoller::new(3, &[1]), BatchedRoller::new(3, &[1]));
        let (mut pieces, mut whole) = (LaneWords::new(&mut a), LaneWords::new(&mut b));
        let mut got = vec![0u64; 200];
        let mut at = 0;
        for len in [1, 31, 2, 64, 0, 37, 65] {
            pieces.fill(&mut got[at..at + len], &mut a);
            at += len;
        }
        let mut want = vec![0u64; 200];
        whole.fill(&mut want, &mut b);
        assert_eq!(got, want);
    }
}
