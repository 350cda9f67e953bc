//! Sixteen xoshiro256++ streams side by side: a word for each of sixteen
//! lanes at once, for walks that step sixteen trials together. The state is
//! laid out stream-major by word (`s[k][lane]`), so a vector kernel loads
//! each of the four state words of eight streams as one register and steps
//! them with the same arithmetic as [`LaneStreams::next_words`].

use super::BatchedRoller;

/// Streams a [`LaneStreams`] steps together.
pub const STREAMS: usize = 32;

/// Sixteen xoshiro256++ generators, each seeded by SplitMix64 from one word
/// of a chunk's roller (as `Xoshiro256PlusPlus::seed_from_u64` seeds), so
/// a chunk's lanes depend only on its own stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneStreams {
    /// `s[k][lane]`: state word `k` of stream `lane`.
    pub s: [[u64; STREAMS]; 4],
}

impl LaneStreams {
    /// Sixteen streams seeded from the next sixteen words of `roller`.
    pub fn new(roller: &mut BatchedRoller) -> Self {
        let mut s = [[0u64; STREAMS]; 4];
        for lane in 0..STREAMS {
            let mut z = roller.next_word();
            for word in &mut s {
                z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut x = z;
                x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                word[lane] = x ^ (x >> 31);
            }
        }
        LaneStreams { s }
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
            let high: [u64; 8] = lanes.next_words(8);
            for (lane, got) in low.iter().chain(&high).enumerate() {
                assert_eq!(*got, reference[lane].next_u64(), "lane {lane}");
            }
        }
    }
}
