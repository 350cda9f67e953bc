//! The small dice trait every mechanic is written against, with its two
//! implementations: a batched Monte Carlo sampler and an exhaustive exact
//! enumerator. A mechanic written once runs under both, so the exact and the
//! simulated answers come from the same description of the rule.

use rand::Rng;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::BTreeMap;

/// Something that rolls dice. Mechanics take `&mut impl Roller`.
pub trait Roller {
    /// One fair die numbered `1..=sides`.
    fn roll(&mut self, sides: u32) -> u32;

    /// One D6.
    #[inline]
    fn d6(&mut self) -> u32 {
        self.roll(6)
    }

    /// The sum of `count` dice with `sides` sides.
    fn sum(&mut self, count: u32, sides: u32) -> u32 {
        (0..count).map(|_| self.roll(sides)).sum()
    }

    /// Whether dice come in bulk from a random stream, where a rule may roll
    /// a pool's first faces all at once ([`Roller::sum_d6_by`]) and its
    /// follow-ups after; scripted and enumerated dice come one at a time in
    /// the order a player rolls them.
    fn in_bulk(&self) -> bool {
        false
    }

    /// `n` D6 rolled, each face read through `values` and the readings
    /// added up (a pool's passes, sixes and ones packed in one number, say):
    /// the batched roller reads sixteen dice a word, four a lookup.
    fn sum_d6_by(&mut self, n: u32, values: &FaceSums) -> u32 {
        (0..n).map(|_| values.one[self.d6() as usize - 1]).sum()
    }

    /// A roll summarised by a value whose exact distribution is known
    /// (`exact` gives each possible value once, with its probability): the
    /// sampler rolls the real dice through `sample` and never asks for the
    /// law; the exact enumerator branches on the law instead, so a pool of
    /// twenty dice costs as many paths as its summary has values, not `6^20`.
    fn known<T: Clone, L: AsRef<[(T, f64)]>>(
        &mut self,
        exact: impl FnOnce() -> L,
        sample: impl FnOnce(&mut Self) -> T,
    ) -> T
    where
        Self: Sized,
    {
        let _ = exact;
        sample(self)
    }
}

/// A [`BatchedRoller`]'s stream lent to a hot loop ([`BatchedRoller::lend`]).
pub struct Lent<'a> {
    rng: Xoshiro256PlusPlus,
    drawn: u64,
    roller: &'a mut BatchedRoller,
}

impl Lent<'_> {
    /// The next word of the stream.
    #[inline(always)]
    pub fn next_word(&mut self) -> u64 {
        self.drawn += 1;
        self.rng.next_u64()
    }

    /// Runs `cold` on the roller itself, its stream where the lent one
    /// stands, and takes the stream back after.
    #[inline]
    pub fn roller<T>(&mut self, cold: impl FnOnce(&mut BatchedRoller) -> T) -> T {
        self.give_back();
        let out = cold(self.roller);
        self.rng = self.roller.rng.clone();
        out
    }

    fn give_back(&mut self) {
        self.roller.rng = self.rng.clone();
        self.roller.words += self.drawn;
        self.drawn = 0;
    }
}

/// Largest product of die sizes drawn from one 64-bit word. Drawing digits of
/// `word / 2^64` in mixed radix by multiply-high gives every tuple of results
/// a count of `floor` or `ceil` of `2^64 / N` for `N` the product of the die
/// sizes, so the relative bias of any result is at most `N / 2^64 = 2^-40`.
pub const BATCH_LIMIT: u64 = 1 << 24;

/// Monte Carlo dice: a xoshiro256++ stream, several dice per 64-bit word.
pub struct BatchedRoller {
    rng: Xoshiro256PlusPlus,
    word: u64,
    used: u64,
    /// Words drawn from the stream so far: what the benchmarks divide by
    /// the trials to give each sampler's share of the generator's limit.
    words: u64,
    /// Dice rolled one by one through [`Roller::roll`] so far.
    dice: u64,
}

impl BatchedRoller {
    /// A roller on the stream for `key` under `seed` (see [`stream_seed`]).
    pub fn new(seed: u64, key: &[u64]) -> Self {
        BatchedRoller {
            rng: Xoshiro256PlusPlus::seed_from_u64(stream_seed(seed, key)),
            word: 0,
            used: BATCH_LIMIT + 1,
            words: 0,
            dice: 0,
        }
    }

    /// A fresh 64-bit word from the stream, for hand-batched fast paths.
    #[inline]
    pub fn next_word(&mut self) -> u64 {
        self.words += 1;
        self.rng.next_u64()
    }

    /// Runs `hot` on this roller's stream lent out as a plain value
    /// ([`Lent`]), written back when `hot` returns: a loop that draws a
    /// word between look-ups and hands the roller to a cold path now and
    /// then would otherwise keep the generator's state in memory, and
    /// every word would wait on the last one's stores. The same words in
    /// the same order as [`BatchedRoller::next_word`].
    #[inline]
    pub fn lend<T>(&mut self, hot: impl FnOnce(&mut Lent<'_>) -> T) -> T {
        let mut lent = Lent {
            rng: self.rng.clone(),
            drawn: 0,
            roller: self,
        };
        let out = hot(&mut lent);
        lent.give_back();
        out
    }

    /// Counts `n` words drawn for this roller's trials from streams it
    /// seeded ([`LaneStreams`](super::LaneStreams)), beside its own.
    pub fn count_words(&mut self, n: u64) {
        self.words += n;
    }

    /// How many 64-bit words this roller has drawn from its stream.
    pub fn words(&self) -> u64 {
        self.words
    }

    /// How many dice it has rolled one by one ([`Roller::roll`]; dice read
    /// in bulk by [`Roller::sum_d6_by`] or [`BatchedRoller::fill_d6`] are
    /// not counted).
    pub fn dice(&self) -> u64 {
        self.dice
    }

    /// Fills `out` with D6 results (1-6), sixteen per 64-bit word: the
    /// word's base-6 digits as [`split_word`] reads them, eight at a time
    /// (`floor(w * 6^8 / 2^64)`, then the fraction left), each eight split
    /// into two halves of four dice looked up already unpacked. The second
    /// eight read a fraction with 56 random bits: bias at most `6^8 / 2^56`,
    /// about 2e-11.
    pub fn fill_d6(&mut self, out: &mut [u8]) {
        const SIX_POW_8: u64 = 1_679_616;
        let eight = |chunk: &mut [u8], index: usize| {
            chunk[..4].copy_from_slice(&FOUR_D6[(index / 1296) & 2047]);
            chunk[4..].copy_from_slice(&FOUR_D6[index % 1296]);
        };
        let mut chunks = out.chunks_exact_mut(16);
        for chunk in &mut chunks {
            let [first, second] = split_word::<2>(self.next_word(), SIX_POW_8);
            let (a, b) = chunk.split_at_mut(8);
            eight(a, first as usize);
            eight(b, second as usize);
        }
        for die in chunks.into_remainder() {
            *die = self.d6() as u8;
        }
    }
}

/// What each face of a D6 counts for in [`Roller::sum_d6_by`], with the
/// sums of every four dice laid out once, so a pool is added up four dice
/// a lookup.
#[derive(Clone, Debug)]
pub struct FaceSums {
    one: [u32; 6],
    /// `four[i]`: the sum over the four dice `FOUR_D6[i]`.
    four: Box<[u32]>,
}

impl FaceSums {
    /// The table for faces 1-6 counting `one[face - 1]` each.
    pub fn new(one: [u32; 6]) -> Self {
        let four = FOUR_D6[..1296]
            .iter()
            .map(|dice| dice.iter().map(|&d| one[usize::from(d) - 1]).sum())
            .collect();
        FaceSums { one, four }
    }
}

/// `FOUR_D6[i]` is the four base-6 digits of `i` (most significant first),
/// each plus one: four D6 results. Padded to 2048 entries so the compiler
/// can see every index is in bounds (only the first 1296 are ever used).
static FOUR_D6: [[u8; 4]; 2048] = {
    let mut table = [[0u8; 4]; 2048];
    let mut i = 0;
    while i < 1296 {
        table[i] = [
            (i / 216) as u8 + 1,
            (i / 36 % 6) as u8 + 1,
            (i / 6 % 6) as u8 + 1,
            (i % 6) as u8 + 1,
        ];
        i += 1;
    }
    table
};

impl Roller for BatchedRoller {
    fn in_bulk(&self) -> bool {
        true
    }

    /// Sixteen dice a word (as [`BatchedRoller::fill_d6`] reads them), four
    /// dice a lookup; a last group of fewer than four reads its own digits.
    fn sum_d6_by(&mut self, mut n: u32, values: &FaceSums) -> u32 {
        const SIX_POW_8: u64 = 1_679_616;
        let mut total = 0;
        while n > 0 {
            let [first, second] = split_word::<2>(self.next_word(), SIX_POW_8);
            for group in [first / 1296, first % 1296, second / 1296, second % 1296] {
                if n >= 4 {
                    total += values.four[group as usize];
                    n -= 4;
                } else {
                    for &d in &FOUR_D6[group as usize][..n as usize] {
                        total += values.one[usize::from(d) - 1];
                    }
                    n = 0;
                }
                if n == 0 {
                    break;
                }
            }
        }
        total
    }

    #[inline]
    fn roll(&mut self, sides: u32) -> u32 {
        self.dice += 1;
        let s = u64::from(sides);
        if self.used * s > BATCH_LIMIT {
            self.word = self.next_word();
            self.used = 1;
        }
        self.used *= s;
        let r = u128::from(self.word) * u128::from(s);
        self.word = r as u64;
        (r >> 64) as u32 + 1
    }
}

/// Splits `word` into dice of `sides` faces, `count` of them, by multiply-high
/// (the hand-batched form of [`BatchedRoller::roll`]). Returns values `0..sides`.
#[inline]
pub fn split_word<const N: usize>(mut word: u64, sides: u64) -> [u32; N] {
    let mut out = [0u32; N];
    for o in out.iter_mut() {
        let r = u128::from(word) * u128::from(sides);
        *o = (r >> 64) as u32;
        word = r as u64;
    }
    out
}

/// Seed of the stream for `key` (such as sweep cell, profile, chunk index)
/// under the spec's `seed`, mixed by SplitMix64 so neighbouring keys give
/// unrelated streams. Any thread may run any chunk and get the same dice.
pub fn stream_seed(seed: u64, key: &[u64]) -> u64 {
    let mut h = splitmix(seed ^ 0x6b72_756e_6368_0001);
    for &k in key {
        h = splitmix(h ^ splitmix(k.wrapping_add(0x9e37_79b9_7f4a_7c15)));
    }
    h
}

/// SplitMix64's output for the state `z` before its step (the step adds
/// the golden gamma, then mixes).
pub(super) fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Dice that show given faces in turn: a face table's entry is laid out by
/// running the rule on the faces the entry stands for.
#[derive(Debug)]
pub struct GivenFaces<'a> {
    faces: &'a [u32],
    at: usize,
}

impl<'a> GivenFaces<'a> {
    /// Dice showing `faces`, first to last.
    pub fn new(faces: &'a [u32]) -> Self {
        GivenFaces { faces, at: 0 }
    }
}

impl Roller for GivenFaces<'_> {
    /// The next given face; past the last, a table entry was asked for
    /// more dice than it stands for, a bug in the table's layout.
    fn roll(&mut self, sides: u32) -> u32 {
        let f = self.faces[self.at];
        debug_assert!((1..=sides).contains(&f));
        self.at += 1;
        f
    }
}

/// Exact dice: replays a mechanic once for every path through its dice,
/// odometer-style, weighting each path by its probability.
pub struct Replay {
    path: Vec<(u32, u32)>,
    pos: usize,
    weight: f64,
}

impl Roller for Replay {
    fn roll(&mut self, sides: u32) -> u32 {
        let face = if let Some(&(choice, s)) = self.path.get(self.pos) {
            debug_assert_eq!(s, sides, "a mechanic must roll the same dice on replay");
            choice
        } else {
            self.path.push((0, sides));
            0
        };
        self.pos += 1;
        self.weight /= f64::from(sides);
        face + 1
    }

    fn known<T: Clone, L: AsRef<[(T, f64)]>>(
        &mut self,
        exact: impl FnOnce() -> L,
        _sample: impl FnOnce(&mut Self) -> T,
    ) -> T {
        let law = exact();
        let exact = law.as_ref();
        let n = exact.len() as u32;
        let choice = if let Some(&(choice, s)) = self.path.get(self.pos) {
            debug_assert_eq!(s, n, "a mechanic must make the same draws on replay");
            choice
        } else {
            self.path.push((0, n));
            0
        };
        self.pos += 1;
        let (value, p) = &exact[choice as usize];
        self.weight *= p;
        value.clone()
    }
}

/// The enumeration would visit more paths than allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("exact enumeration needs more than {limit} dice paths")]
pub struct TooManyPaths {
    /// The limit that was hit.
    pub limit: usize,
}

/// Runs `mechanic` over every path through its dice (at most `limit` paths)
/// and returns each distinct outcome with its exact probability.
pub fn enumerate<T, F>(limit: usize, mechanic: F) -> Result<Vec<(T, f64)>, TooManyPaths>
where
    T: Ord + std::hash::Hash,
    F: FnMut(&mut Replay) -> T,
{
    enumerate_counted(limit, &mut 0, mechanic)
}

/// [`enumerate`], adding the paths it visits to `visited` (the work an
/// exact evaluator has done, for its budget).
pub fn enumerate_counted<T, F>(
    limit: usize,
    visited: &mut u64,
    mut mechanic: F,
) -> Result<Vec<(T, f64)>, TooManyPaths>
where
    T: Ord + std::hash::Hash,
    F: FnMut(&mut Replay) -> T,
{
    let mut replay = Replay {
        path: Vec::new(),
        pos: 0,
        weight: 1.0,
    };
    // merged in a hash map, sorted at the end: each outcome's sum adds its
    // paths in the same order as an ordered map would, so the values are
    // bit-identical, without a tree search a path
    let mut out: foldhash::HashMap<T, f64> = Default::default();
    let mut paths = 0usize;
    loop {
        paths += 1;
        *visited += 1;
        if paths > limit {
            return Err(TooManyPaths { limit });
        }
        replay.pos = 0;
        replay.weight = 1.0;
        let outcome = mechanic(&mut replay);
        replay.path.truncate(replay.pos);
        *out.entry(outcome).or_insert(0.0) += replay.weight;
        // advance the odometer
        loop {
            match replay.path.last_mut() {
                None => {
                    let mut out: Vec<(T, f64)> = out.into_iter().collect();
                    out.sort_unstable_by(|a, b| a.0.cmp(&b.0));
                    return Ok(out);
                }
                Some(last) => {
                    last.0 += 1;
                    if last.0 < last.1 {
                        break;
                    }
                    replay.path.pop();
                }
            }
        }
    }
}

/// An exact distribution over states of any kind, advanced one step at a
/// time so equal states merge between steps. Ordered maps keep the order of
/// floating-point sums fixed, so exact values are bit-identical run to run. This keeps "roll the Sustained
/// Fire dice, then resolve each shot" polynomial where enumerating whole
/// trials would be exponential.
#[derive(Clone, Debug)]
pub struct StateDist<S> {
    states: BTreeMap<S, f64>,
}

impl<S: Ord + Clone + std::hash::Hash> StateDist<S> {
    /// Starts from `state` with certainty.
    pub fn certain(state: S) -> Self {
        StateDist {
            states: BTreeMap::from([(state, 1.0)]),
        }
    }

    /// The distribution with these states and probabilities (equal states
    /// merged).
    pub fn from_pairs(pairs: impl IntoIterator<Item = (S, f64)>) -> Self {
        let mut states = BTreeMap::new();
        for (s, p) in pairs {
            *states.entry(s).or_insert(0.0) += p;
        }
        StateDist { states }
    }

    /// Applies a mechanic step to every state, enumerating its dice.
    pub fn step<F>(&self, limit: usize, step: F) -> Result<Self, TooManyPaths>
    where
        F: FnMut(&mut Replay, &mut S),
    {
        self.step_counted(limit, &mut 0, step)
    }

    /// [`StateDist::step`], adding the dice paths it visits to `visited`.
    pub fn step_counted<F>(
        &self,
        limit: usize,
        visited: &mut u64,
        mut step: F,
    ) -> Result<Self, TooManyPaths>
    where
        F: FnMut(&mut Replay, &mut S),
    {
        // merged in a hash map (each state's sum in the same order as an
        // ordered map's), then laid out in order
        let mut next: foldhash::HashMap<S, f64> = Default::default();
        for (s, &p) in &self.states {
            let outcomes = enumerate_counted(limit, visited, |r| {
                let mut s2 = s.clone();
                step(r, &mut s2);
                s2
            })?;
            for (s2, q) in outcomes {
                *next.entry(s2).or_insert(0.0) += p * q;
            }
        }
        Ok(StateDist {
            states: next.into_iter().collect(),
        })
    }

    /// The states with their probabilities.
    pub fn iter(&self) -> impl Iterator<Item = (&S, f64)> {
        self.states.iter().map(|(s, &p)| (s, p))
    }

    /// Probability that the state satisfies `pred`.
    pub fn prob(&self, pred: impl Fn(&S) -> bool) -> f64 {
        self.iter().filter(|(s, _)| pred(s)).map(|(_, p)| p).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Dist;

    /// A lent stream gives the roller's own words in order, a cold path
    /// in between draws where the stream stands and the lent stream goes
    /// on after it, and the words drawn are counted once.
    #[test]
    fn a_lent_stream_is_the_rollers_own() {
        let mut plain = BatchedRoller::new(9, &[2]);
        let want: Vec<u64> = (0..7).map(|_| plain.next_word()).collect();
        let mut lent = BatchedRoller::new(9, &[2]);
        let got = lent.lend(|words| {
            let mut got = vec![words.next_word(), words.next_word()];
            got.push(words.roller(|r| r.next_word()));
            got.extend((0..3).map(|_| words.next_word()));
            got
        });
        let mut got = got;
        got.push(lent.next_word());
        assert_eq!(got, want);
        assert_eq!(lent.words(), 7);
    }

    #[test]
    fn enumerator_reproduces_two_d6() {
        let out = enumerate(1000, |r| r.d6() + r.d6()).unwrap();
        let exact = Dist::die(6).sum_of(2);
        for (v, p) in out {
            assert!((p - exact.pmf(i64::from(v))).abs() < 1e-15);
        }
    }

    #[test]
    fn enumerator_handles_data_dependent_dice() {
        // roll a d6; on a 6 roll a further d6 and succeed on 4+ (GCE 7+ chain)
        let out = enumerate(1000, |r| r.d6() == 6 && r.d6() >= 4).unwrap();
        let p: f64 = out.iter().filter(|(v, _)| *v).map(|(_, p)| p).sum();
        assert!((p - 1.0 / 12.0).abs() < 1e-15);
    }

    #[test]
    fn known_draws_branch_with_their_weights_and_sample_with_dice() {
        // a known draw mixed with ordinary dice: P(draw 2 and d6 >= 5)
        let law = [(1u32, 0.25), (2u32, 0.75)];
        let out = enumerate(100, |r| {
            let v = r.known(|| law, |r| if r.d6() <= 2 { 1 } else { 2 });
            v == 2 && r.d6() >= 5
        })
        .unwrap();
        let p: f64 = out.iter().filter(|(v, _)| *v).map(|(_, p)| p).sum();
        assert!((p - 0.75 / 3.0).abs() < 1e-15, "{p}");
        let total: f64 = out.iter().map(|(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-15);
        // the sampler rolls the dice instead: faces 1-2 give 1, so about a third
        let mut roller = BatchedRoller::new(1, &[0]);
        let ones = (0..6000)
            .filter(|_| {
                let never =
                    || -> [(u32, f64); 0] { unreachable!("the sampler never asks for the law") };
                roller.known(never, |r| if r.d6() <= 2 { 1 } else { 2 }) == 1
            })
            .count();
        // P(1) is 1/3 on real dice (the law says 1/4): a binomial test at a
        // stated false-alarm rate of 1e-6, fixed seed, which the law's 1/4
        // fails by far (about 14 standard deviations)
        let p = crate::dice::stats::binomial_p_value(ones as u64, 6000, 1.0 / 3.0);
        assert!(p > 1e-6, "{ones} of 6000: p = {p}");
        assert!(crate::dice::stats::binomial_p_value(ones as u64, 6000, 0.25) < 1e-6);
    }

    #[test]
    fn enumerator_refuses_huge_trees() {
        assert_eq!(
            enumerate(100, |r| r.sum(5, 6)).unwrap_err(),
            TooManyPaths { limit: 100 }
        );
    }

    #[test]
    fn batched_roller_is_reproducible_and_in_range() {
        let mut a = BatchedRoller::new(7, &[1, 2]);
        let mut b = BatchedRoller::new(7, &[1, 2]);
        for sides in [3u32, 6, 10, 20, 6, 6, 100] {
            let (x, y) = (a.roll(sides), b.roll(sides));
            assert_eq!(x, y);
            assert!((1..=sides).contains(&x));
        }
        let mut c = BatchedRoller::new(7, &[1, 3]);
        let same = (0..64).filter(|_| a.d6() == c.d6()).count();
        assert!(same < 40, "different keys must give different streams");
    }

    #[test]
    fn pinned_stream_values_stay_stable() {
        // Changing the stream derivation changes every published number; pin it.
        let mut r = BatchedRoller::new(42, &[0, 0, 0]);
        let v: Vec<u32> = (0..12).map(|_| r.d6()).collect();
        assert_eq!(v, PINNED_D6);
    }

    const PINNED_D6: [u32; 12] = [4, 1, 1, 5, 6, 6, 6, 3, 2, 5, 2, 2];

    #[test]
    fn split_word_matches_roller() {
        let mut r = BatchedRoller::new(9, &[4]);
        let mut raw = BatchedRoller::new(9, &[4]);
        let w = raw.next_word();
        let split: [u32; 8] = split_word(w, 6);
        for s in split {
            assert_eq!(r.d6(), s + 1);
        }
    }

    #[test]
    fn fill_d6_gives_the_same_dice_as_rolling_one_by_one() {
        let mut filled = [0u8; 37];
        BatchedRoller::new(3, &[1]).fill_d6(&mut filled);
        let mut raw = BatchedRoller::new(3, &[1]);
        for chunk in filled[..32].chunks(16) {
            let digits: [u32; 16] = split_word(raw.next_word(), 6);
            let want: Vec<u8> = digits.iter().map(|&d| d as u8 + 1).collect();
            assert_eq!(chunk, &want[..]);
        }
        assert!(filled.iter().all(|d| (1..=6).contains(d)));
    }

    #[test]
    fn face_sums_read_the_same_dice_as_fill_d6() {
        // count sixes (x1), ones (x256) and faces (x65536) over pools of
        // every size to 40: the batched sums are the dice fill_d6 draws
        let values = FaceSums::new([
            1 << 8 | 1 << 16,
            1 << 16,
            1 << 16,
            1 << 16,
            1 << 16,
            1 | 1 << 16,
        ]);
        for n in 0..40u32 {
            let mut summed = BatchedRoller::new(5, &[u64::from(n)]);
            let mut filled = BatchedRoller::new(5, &[u64::from(n)]);
            let got = summed.sum_d6_by(n, &values);
            let mut dice = vec![0u8; n.div_ceil(16) as usize * 16];
            filled.fill_d6(&mut dice);
            let want: u32 = dice[..n as usize]
                .iter()
                .map(|&d| values.one[usize::from(d) - 1])
                .sum();
            assert_eq!(got, want, "{n} dice");
            assert_eq!(got >> 16, n, "every die counted once");
            assert_eq!(
                summed.words(),
                u64::from(n.div_ceil(16)),
                "sixteen dice a word"
            );
        }
    }

    #[test]
    fn state_dist_merges_states() {
        let d = StateDist::certain(0u32)
            .step(100, |r, s| *s += u32::from(r.d6() >= 5))
            .unwrap()
            .step(100, |r, s| *s += u32::from(r.d6() >= 5))
            .unwrap();
        assert_eq!(d.iter().count(), 3);
        assert!((d.prob(|s| *s == 2) - 1.0 / 9.0).abs() < 1e-15);
    }
}
