//! Face tables: a trial that rolls few dice is run once, through the rule's
//! own code, on every combination of faces its dice can show, and the
//! ending of each combination is kept in a table. A Monte Carlo trial is
//! then one uniform draw of a combination, which is rolling those dice
//! all at once, and a look-up ([`Sampler::FaceTable`](super::Sampler)).
//!
//! This is not the exact law: the table holds the ending of every face
//! combination as the sampler's code plays it, never a probability, so the
//! Monte Carlo still checks how the exact evaluator chains steps and merges
//! states. A trial that rolls more dice than the table stands for (an
//! exploding six past the table's last die) is marked: the sampler replays
//! the combination's faces and goes on rolling real dice.
//!
//! The dice a rule rolls may differ from path to path: the table lays out
//! one digit a position, wide enough for every die rolled there (a D3 read
//! from a D6 digit, two faces a result), and a position a path never
//! reaches simply goes unread.

use crate::dice::{BATCH_LIMIT, BatchedRoller, Roller};
use std::hash::Hash;

/// Most combinations a table lays out: small enough to stay in cache (four
/// bytes an entry) and to build in a few milliseconds.
pub const MOST_FACES: u64 = 1 << 16;

/// Most combinations a table may grow to for a long run
/// ([`most_faces_for`]): a megabyte of one-byte entries, within the core's
/// own cache.
pub const MOST_FACES_LONG: u64 = 1 << 20;

/// Draws a run must make of each combination, on average, before its table
/// may grow past [`MOST_FACES`]: the build (the rule run once a
/// combination) is then a small share of the run.
const DRAWS_A_FACE: u64 = 64;

/// Share of combinations past a [`MOST_FACES`] table above which a long
/// run lays out a larger one: below it the replays cost less than a
/// larger table's build and cache misses.
const GROW_PAST: f64 = 1.0 / 64.0;

/// Largest share of combinations that may need dice past the table before
/// the table is not worth its replays.
const MOST_OVERFLOW: f64 = 1.0 / 16.0;

/// Combinations a table may lay out for a run of `planned` trials (0: not
/// told): [`MOST_FACES`], up to [`MOST_FACES_LONG`] where the run draws
/// each combination [`DRAWS_A_FACE`] times.
pub fn most_faces_for(planned: u64) -> u64 {
    (planned / DRAWS_A_FACE).clamp(MOST_FACES, MOST_FACES_LONG)
}

/// Most cells of a joint histogram ([`FaceTable::count`]): the
/// combinations of several trials read from a word as one index and
/// counted at once, 32 KB of counts that stay near the core.
const JOINT_CELLS: u64 = 1 << 12;

/// Widest digit one position may need (D3, D6, D10, D20 and D12 share 60).
pub const WIDEST_DIGIT: u32 = 720;

/// The entry of a combination whose trial rolls past the table.
const PAST_THE_TABLE: u32 = u32::MAX;

/// A combination's entry as stored: as narrow as the count of endings
/// allows, so a table of 6^6 combinations with a few dozen endings takes
/// 46 KB and stays near the core instead of 186 KB.
trait Entry: Copy {
    /// The stored form of [`PAST_THE_TABLE`].
    const PAST: Self;
    fn index(self) -> usize;
}

impl Entry for u8 {
    const PAST: u8 = u8::MAX;
    #[inline]
    fn index(self) -> usize {
        usize::from(self)
    }
}

impl Entry for u16 {
    const PAST: u16 = u16::MAX;
    #[inline]
    fn index(self) -> usize {
        usize::from(self)
    }
}

impl Entry for u32 {
    const PAST: u32 = PAST_THE_TABLE;
    #[inline]
    fn index(self) -> usize {
        self as usize
    }
}

/// Every combination's entry, in the narrowest width that holds the
/// endings and the mark of a trial past the table.
#[derive(Debug)]
enum Entries {
    Narrow(Vec<u8>),
    Half(Vec<u16>),
    Wide(Vec<u32>),
}

impl Entries {
    fn new(wide: Vec<u32>, ends: usize) -> Self {
        // an ending's index is below `ends`, the mark is the type's MAX
        if ends < usize::from(u8::MAX) {
            Entries::Narrow(wide.into_iter().map(|e| e.min(255) as u8).collect())
        } else if ends < usize::from(u16::MAX) {
            Entries::Half(wide.into_iter().map(|e| e.min(65535) as u16).collect())
        } else {
            Entries::Wide(wide)
        }
    }

    /// The entry at `i` (an ending's index or [`PAST_THE_TABLE`]).
    #[cfg(test)]
    fn get(&self, i: usize) -> u32 {
        let wide = |e: usize, past: bool| if past { PAST_THE_TABLE } else { e as u32 };
        match self {
            Entries::Narrow(v) => wide(v[i].index(), v[i] == u8::PAST),
            Entries::Half(v) => wide(v[i].index(), v[i] == u16::PAST),
            Entries::Wide(v) => v[i],
        }
    }

    fn past(&self) -> usize {
        match self {
            Entries::Narrow(v) => v.iter().filter(|&&e| e == u8::PAST).count(),
            Entries::Half(v) => v.iter().filter(|&&e| e == u16::PAST).count(),
            Entries::Wide(v) => v.iter().filter(|&&e| e == u32::PAST).count(),
        }
    }
}

/// Every face combination of a trial's first dice with the ending its trial
/// reaches.
#[derive(Debug)]
pub struct FaceTable<T> {
    /// Faces of each position's digit (a die rolled there reads
    /// `digit / (width / sides) + 1`).
    widths: Vec<u32>,
    /// Combinations: the product of the widths.
    size: u64,
    /// Combinations drawn from one word (their product within
    /// [`BATCH_LIMIT`], as the roller's own batching).
    per_word: u32,
    /// Each combination's ending (an index into `ends`) or the mark of a
    /// trial past the table.
    entry: Entries,
    /// The distinct endings.
    ends: Vec<T>,
    /// Trials [`FaceTable::count`] reads as one joint index.
    joint_trials: u32,
}

impl<T: Clone + Eq + Hash> FaceTable<T> {
    /// The table of `trial` (the rule's own trial on any dice), or `None`
    /// where its dice do not fit [`MOST_FACES`] combinations or too many
    /// trials would roll past them.
    pub fn build(trial: impl Fn(&mut Tape) -> T) -> Option<Self> {
        Self::build_allowing(trial, MOST_OVERFLOW)
    }

    /// [`FaceTable::build`] for a run of `planned` trials: where more than
    /// [`GROW_PAST`] of a [`MOST_FACES`] table's trials roll past it and
    /// the run is long enough ([`most_faces_for`]), a table of more dice,
    /// so fewer trials replay (a pool of exploding dice: 6.2% of 4 keep-3
    /// trials roll past six dice, 1.5% past seven).
    pub fn build_for(trial: impl Fn(&mut Tape) -> T, planned: u64) -> Option<Self> {
        let table = Self::build(&trial)?;
        let most = most_faces_for(planned);
        if most > MOST_FACES && table.past() as f64 > GROW_PAST * table.size as f64 {
            Self::build_within(&trial, most, MOST_OVERFLOW).or(Some(table))
        } else {
            Some(table)
        }
    }

    /// [`FaceTable::build`], with up to `share` of the combinations
    /// rolling past the table (the tests lay out tables most of whose
    /// trials replay, to hold the replay to the law).
    pub fn build_allowing(trial: impl Fn(&mut Tape) -> T, share: f64) -> Option<Self> {
        Self::build_within(trial, MOST_FACES, share)
    }

    /// A table of at most `most` combinations, up to `share` of them
    /// rolling past it.
    fn build_within(trial: impl Fn(&mut Tape) -> T, most: u64, share: f64) -> Option<Self> {
        let mut widths: Vec<u32> = Vec::new();
        'layout: loop {
            let size: u64 = widths.iter().map(|&w| u64::from(w)).product();
            let mut ids: foldhash::HashMap<T, u32> = Default::default();
            let mut ends = Vec::new();
            let mut entry = Vec::with_capacity(size as usize);
            let mut past = 0u64;
            for i in 0..size {
                let mut tape = Tape::new(&widths, i);
                let end = trial(&mut tape);
                if let Some((at, sides)) = tape.misfit {
                    let wider = lcm(widths[at], sides);
                    if wider > WIDEST_DIGIT
                        || size / u64::from(widths[at]) * u64::from(wider) > most
                    {
                        return None;
                    }
                    widths[at] = wider;
                    continue 'layout;
                }
                if let Some(sides) = tape.past {
                    if size * u64::from(sides) <= most {
                        widths.push(sides);
                        continue 'layout;
                    }
                    past += 1;
                    if past as f64 > share * size as f64 {
                        return None;
                    }
                    entry.push(PAST_THE_TABLE);
                    continue;
                }
                let next = ends.len() as u32;
                let id = *ids.entry(end.clone()).or_insert_with(|| {
                    ends.push(end);
                    next
                });
                entry.push(id);
            }
            // a trial of no dice (size 1) still takes a word now and then
            let mut per_word = 1u32;
            while per_word < 64 && size.saturating_pow(per_word + 1) <= BATCH_LIMIT {
                per_word += 1;
            }
            let mut table = FaceTable {
                widths,
                size,
                per_word,
                entry: Entries::new(entry, ends.len()),
                ends,
                joint_trials: 1,
            };
            table.joint_trials = table.fit_joint_trials();
            return Some(table);
        }
    }

    /// Runs `trials` trials: each a draw of a combination, counted by its
    /// ending; a combination marked past the table replays its faces into
    /// `trial` and goes on rolling `roller`'s dice, its ending handed to
    /// `past`. Returns the count of each of [`FaceTable::ends`].
    pub fn count(
        &self,
        roller: &mut BatchedRoller,
        trials: u64,
        trial: impl Fn(&mut Overrun<'_>) -> T,
        past: impl FnMut(T),
    ) -> Vec<u64> {
        match &self.entry {
            Entries::Narrow(e) => self.count_in(e, roller, trials, trial, past),
            Entries::Half(e) => self.count_in(e, roller, trials, trial, past),
            Entries::Wide(e) => self.count_in(e, roller, trials, trial, past),
        }
    }

    /// Trials whose combinations are read from a word as one joint index
    /// ([`FaceTable::count_jointly`]): as many as fit [`JOINT_CELLS`] and
    /// a word; 1 where joint counting does not pay or cannot be used (a
    /// combination that rolls past the table replays mid-word, so the
    /// trials after it must be told apart).
    fn fit_joint_trials(&self) -> u32 {
        if self.past() > 0 {
            return 1;
        }
        let mut m = 1;
        while m < self.per_word && self.size.saturating_pow(m + 1) <= JOINT_CELLS {
            m += 1;
        }
        m
    }

    /// [`FaceTable::count`] over entries stored as `E`.
    fn count_in<E: Entry + PartialEq>(
        &self,
        entry: &[E],
        roller: &mut BatchedRoller,
        trials: u64,
        trial: impl Fn(&mut Overrun<'_>) -> T,
        past: impl FnMut(T),
    ) -> Vec<u64> {
        match self.joint_trials {
            1 => self.count_one_by_one(entry, roller, trials, trial, past),
            m => self.count_jointly(entry, roller, trials, m),
        }
    }

    /// [`FaceTable::count`] for a table no combination of which rolls past
    /// it, `m` trials at a time: the digits of a word's mixed-radix draws
    /// are its trials' combinations, so the leading `m` of them are one
    /// multiply-high by `size^m`, counted by that joint index; endings are
    /// read off the joint counts once, at the end. The same draws as
    /// [`FaceTable::count_one_by_one`] (the same words, the same digits),
    /// so the same counts, with one multiply and one count for `m` trials
    /// instead of `m` of each: a word's draws are a chain of multiplies,
    /// each waiting on the last, and that chain was the trial's cost.
    fn count_jointly<E: Entry>(
        &self,
        entry: &[E],
        roller: &mut BatchedRoller,
        trials: u64,
        m: u32,
    ) -> Vec<u64> {
        let size = self.size;
        let group = size.pow(m);
        let mut joint = vec![0u64; group as usize];
        let mut single = vec![0u64; size as usize];
        let per_word = u64::from(self.per_word);
        let (groups, singles) = (per_word / u64::from(m), per_word % u64::from(m));
        let (group, size) = (u128::from(group), u128::from(size));
        for _ in 0..trials / per_word {
            let mut word = roller.next_word();
            for _ in 0..groups {
                let r = u128::from(word) * group;
                word = r as u64;
                joint[(r >> 64) as usize] += 1;
            }
            for _ in 0..singles {
                let r = u128::from(word) * size;
                word = r as u64;
                single[(r >> 64) as usize] += 1;
            }
        }
        if !trials.is_multiple_of(per_word) {
            let mut word = roller.next_word();
            for _ in 0..trials % per_word {
                let r = u128::from(word) * size;
                word = r as u64;
                single[(r >> 64) as usize] += 1;
            }
        }
        let size = size as u64;
        let mut counts = vec![0u64; self.ends.len()];
        for (mut at, &n) in joint.iter().enumerate().filter(|(_, n)| **n > 0) {
            for _ in 0..m {
                counts[entry[at % size as usize].index()] += n;
                at /= size as usize;
            }
        }
        for (at, &n) in single.iter().enumerate() {
            if n > 0 {
                counts[entry[at].index()] += n;
            }
        }
        counts
    }

    /// [`FaceTable::count`] a trial at a time.
    fn count_one_by_one<E: Entry + PartialEq>(
        &self,
        entry: &[E],
        roller: &mut BatchedRoller,
        trials: u64,
        trial: impl Fn(&mut Overrun<'_>) -> T,
        mut past: impl FnMut(T),
    ) -> Vec<u64> {
        // four histograms side by side, trial after trial in turn, so a
        // run of the same ending does not wait on its own last count
        let mut counts = vec![0u64; 4 * self.ends.len()];
        let mut lane = 0usize;
        let size = u128::from(self.size);
        let mut left = trials;
        while left > 0 {
            let mut word = roller.next_word();
            let draws = u64::from(self.per_word).min(left);
            for _ in 0..draws {
                let r = u128::from(word) * size;
                word = r as u64;
                let at = (r >> 64) as usize;
                let end = entry[at];
                if end == E::PAST {
                    past(trial(&mut Overrun {
                        tape: Tape::new(&self.widths, at as u64),
                        rest: roller,
                    }));
                } else {
                    counts[4 * end.index() + lane] += 1;
                    lane = (lane + 1) & 3;
                }
            }
            left -= draws;
        }
        counts.chunks_exact(4).map(|c| c.iter().sum()).collect()
    }

    /// One draw of a combination (its dice rolled at once, batched with
    /// the roller's other dice): the index of its ending in
    /// [`FaceTable::ends`], or, for a combination past the table, the
    /// ending `trial` reaches replaying its faces and rolling on. For a
    /// rule that rolls the same few dice again and again (a day's healing
    /// roll), where a whole trial does not fit a table.
    #[inline]
    pub fn draw(
        &self,
        roller: &mut BatchedRoller,
        trial: impl FnOnce(&mut Overrun<'_>) -> T,
    ) -> Result<usize, T> {
        let at = roller.roll(self.size as u32) as usize - 1;
        let end = match &self.entry {
            Entries::Narrow(e) => e[at].index(),
            Entries::Half(e) => e[at].index(),
            Entries::Wide(e) => e[at].index(),
        };
        if end < self.ends.len() {
            Ok(end)
        } else {
            Err(trial(&mut Overrun {
                tape: Tape::new(&self.widths, at as u64),
                rest: roller,
            }))
        }
    }

    /// The distinct endings, in the order [`FaceTable::count`] counts them.
    pub fn ends(&self) -> &[T] {
        &self.ends
    }

    /// Combinations laid out.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Combinations whose trial rolls past the table.
    pub fn past(&self) -> usize {
        self.entry.past()
    }
}

/// A model's face table, laid out the first time the model samples, as
/// large as the run it was told of allows ([`FaceTable::build_for`]).
#[derive(Debug)]
pub struct PlannedTable<T> {
    table: std::sync::OnceLock<Option<FaceTable<T>>>,
    /// The trials the run plans ([`Model::plan`](super::Model::plan); 0:
    /// not told).
    planned: std::sync::atomic::AtomicU64,
}

impl<T> Default for PlannedTable<T> {
    fn default() -> Self {
        PlannedTable {
            table: std::sync::OnceLock::new(),
            planned: std::sync::atomic::AtomicU64::new(0),
        }
    }
}

impl<T: Clone + Eq + Hash> PlannedTable<T> {
    /// Tells the table the trials the run will draw (before it is laid out;
    /// the spec's count, the same on every shard and thread, so the table
    /// and the draws are too).
    pub fn plan(&self, trials: u64) {
        self.planned
            .store(trials, std::sync::atomic::Ordering::Relaxed);
    }

    /// The table of `trial`, laid out the first time (`None`: its dice do
    /// not fit).
    pub fn get(&self, trial: impl Fn(&mut Tape) -> T) -> Option<&FaceTable<T>> {
        self.table
            .get_or_init(|| {
                FaceTable::build_for(
                    trial,
                    self.planned.load(std::sync::atomic::Ordering::Relaxed),
                )
            })
            .as_ref()
    }
}

/// The least common multiple: the digit wide enough for dice of both
/// sides at one position.
pub fn lcm(a: u32, b: u32) -> u32 {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    a / x * b
}

/// Dice read from one combination's digits, first die first; what the
/// table needs to know about the dice asked for is noted.
#[derive(Debug)]
pub struct Tape<'a> {
    widths: &'a [u32],
    /// What is left of the combination's index (below [`MOST_FACES`], so
    /// 32-bit division reads its digits).
    index: u32,
    at: usize,
    /// The first die asked for past the laid-out positions: its sides.
    past: Option<u32>,
    /// The first die whose sides do not divide its position's width.
    misfit: Option<(usize, u32)>,
    /// Dice shown since the trial left the table (or misfit).
    stray: u32,
}

impl<'a> Tape<'a> {
    fn new(widths: &'a [u32], index: u64) -> Self {
        Tape {
            widths,
            index: u32::try_from(index).expect("a combination below MOST_FACES"),
            at: 0,
            past: None,
            misfit: None,
            stray: 0,
        }
    }

    /// A face for a die the table cannot show (its trial's ending is
    /// unused): from a small fixed stream, so a rule that rolls until some
    /// face comes up (a fight to its end, a six to explode on) ends as a
    /// real trial does, and the table is the same every build.
    fn stray(&mut self, sides: u32) -> u32 {
        self.stray = self.stray.wrapping_add(1);
        let mut z =
            u64::from(self.stray).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(self.index);
        z = (z ^ (z >> 31)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z ^= z >> 29;
        ((u128::from(z) * u128::from(sides)) >> 64) as u32 + 1
    }

    /// The next face, or `None` past the table.
    #[inline]
    fn next(&mut self, sides: u32) -> Option<u32> {
        let at = self.at;
        let &width = self.widths.get(at)?;
        self.at += 1;
        let digit = self.index % width;
        self.index /= width;
        if width % sides != 0 {
            self.misfit.get_or_insert((at, sides));
            return Some(self.stray(sides));
        }
        Some(digit / (width / sides) + 1)
    }
}

impl Roller for Tape<'_> {
    /// A die of one side shows 1 and takes no position; past the table the
    /// trial is marked and its dice stray ([`Tape::stray`]).
    fn roll(&mut self, sides: u32) -> u32 {
        if sides <= 1 {
            return 1;
        }
        match self.next(sides) {
            Some(face) => face,
            None => {
                self.past.get_or_insert(sides);
                self.stray(sides)
            }
        }
    }
}

/// A combination's faces replayed, then real dice: a trial that rolls past
/// the table.
pub struct Overrun<'a> {
    tape: Tape<'a>,
    rest: &'a mut BatchedRoller,
}

impl Roller for Overrun<'_> {
    fn roll(&mut self, sides: u32) -> u32 {
        if sides <= 1 {
            return 1;
        }
        match self.tape.next(sides) {
            Some(face) => face,
            None => self.rest.roll(sides),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Roller;

    /// Four D6, each six adding a die: the dice rolled in all.
    fn exploding_four(d: &mut impl Roller) -> u32 {
        let (mut left, mut rolled) = (4, 0);
        while left > 0 {
            left -= 1;
            rolled += 1;
            if d.roll(6) == 6 {
                left += 1;
            }
        }
        rolled
    }

    /// P(n dice rolled in all) for four exploding D6, by the hitting-time
    /// theorem (the walk of dice left, from 4, first at 0 after n dice,
    /// n - 4 of them sixes): 4/n C(n, n - 4) (1/6)^(n-4) (5/6)^4.
    fn rolled_by_hand(n: u32) -> f64 {
        let sixes = n - 4;
        let choose = (0..sixes).fold(1.0, |c, i| c * f64::from(n - i) / f64::from(i + 1));
        4.0 / f64::from(n) * choose * (1.0f64 / 6.0).powi(sixes as i32) * (5.0f64 / 6.0).powi(4)
    }

    #[test]
    fn a_long_run_lays_out_more_dice_and_replays_fewer_trials() {
        let short = FaceTable::build_for(|d: &mut Tape| exploding_four(d), 0).unwrap();
        let long = FaceTable::build_for(|d: &mut Tape| exploding_four(d), 1 << 30).unwrap();
        // six dice fit 2^16 combinations, seven fit the long run's 2^20
        assert_eq!((short.size(), long.size()), (6u64.pow(6), 6u64.pow(7)));
        // what rolls past: more than 6 (7) dice in all
        let past = |dice: u32| 1.0 - (4..=dice).map(rolled_by_hand).sum::<f64>();
        let share = |t: &FaceTable<u32>| t.past() as f64 / t.size() as f64;
        assert!((share(&short) - past(6)).abs() < 1e-12, "{}", share(&short));
        assert!((share(&long) - past(7)).abs() < 1e-12, "{}", share(&long));
        // a run too short for a table's build to pay keeps the small one
        let run = FaceTable::build_for(|d: &mut Tape| exploding_four(d), 1_000_000).unwrap();
        assert_eq!(run.size(), 6u64.pow(6));
        // the long table's draws and replays follow the law by hand: a
        // binomial test per count of dice (4..=9, and more), Bonferroni
        // over seven at 1e-6, fixed seed
        let n = 2_000_000u64;
        let mut roller = BatchedRoller::new(3, &[0]);
        let mut rolled = [0u64; 11];
        let counts = long.count(
            &mut roller,
            n,
            |d| exploding_four(d),
            |r| rolled[(r as usize).min(10)] += 1,
        );
        for (end, c) in long.ends().iter().zip(counts) {
            rolled[(*end as usize).min(10)] += c;
        }
        assert_eq!(rolled.iter().sum::<u64>(), n);
        for dice in 4..=10u32 {
            let want = if dice < 10 {
                rolled_by_hand(dice)
            } else {
                1.0 - (4..10).map(rolled_by_hand).sum::<f64>()
            };
            let got = rolled[dice as usize];
            let p = crate::dice::stats::binomial_p_value(got, n, want);
            assert!(
                p > 1e-6 / 7.0,
                "{dice} dice: {got} of {n}, want {want}: p = {p}"
            );
        }
    }

    /// Joint counting reads the same draws as counting a trial at a time:
    /// the same counts, to the trial, for tables of one to six combinations
    /// a trial up to ones that take a word alone, and for runs that end
    /// mid-word. A decoding that dropped the last trials
    /// of a word or read the joint index with the wrong radix would move
    /// counts between endings (each table's endings differ by face).
    #[test]
    fn joint_counts_are_the_counts_of_the_same_draws_a_trial_at_a_time() {
        let tables: Vec<(FaceTable<u32>, u32)> = vec![
            // one D6, face 6 apart: per word 9, four trials a joint index
            (
                FaceTable::build(|d: &mut Tape| u32::from(d.roll(6) == 6)).unwrap(),
                4,
            ),
            // one D6 by face: the digit order matters
            (FaceTable::build(|d: &mut Tape| d.roll(6)).unwrap(), 4),
            // two D6 by their ordered faces: 36 combinations, two at once
            (
                FaceTable::build(|d: &mut Tape| d.roll(6) * 10 + d.roll(6)).unwrap(),
                2,
            ),
            // a D20 and a D3: 60, two at once
            (
                FaceTable::build(|d: &mut Tape| d.roll(20) * 10 + d.roll(3)).unwrap(),
                2,
            ),
            // no dice at all: every trial the one ending
            (FaceTable::build(|_: &mut Tape| 7).unwrap(), 64),
            // three D6 ordered: 216 a trial, one at a time
            (
                FaceTable::build(|d: &mut Tape| d.roll(6) * 100 + d.roll(6) * 10 + d.roll(6))
                    .unwrap(),
                1,
            ),
        ];
        for (t, m) in &tables {
            assert_eq!(t.joint_trials, *m, "{} combinations", t.size());
            for trials in [0, 1, 5, 9, 1000, 65_537] {
                let jointly = t.count(&mut BatchedRoller::new(11, &[4]), trials, |_| 0, |_| ());
                let one_by_one = match &t.entry {
                    Entries::Narrow(e) => t.count_one_by_one(
                        e,
                        &mut BatchedRoller::new(11, &[4]),
                        trials,
                        |_| 0,
                        |_| (),
                    ),
                    _ => unreachable!("few endings"),
                };
                assert_eq!(
                    jointly,
                    one_by_one,
                    "{} combinations, {trials} trials",
                    t.size()
                );
                assert_eq!(jointly.iter().sum::<u64>(), trials);
            }
        }
    }

    /// Two D6 summed: 36 combinations, 11 endings, nothing past.
    #[test]
    fn two_dice_lay_out_every_combination_once() {
        let t = FaceTable::build(|d: &mut Tape| d.roll(6) + d.roll(6)).unwrap();
        assert_eq!(t.size(), 36);
        assert_eq!(t.ends().len(), 11);
        assert_eq!(t.past(), 0);
        let mut by_sum = [0u32; 13];
        for i in 0..t.size() as usize {
            by_sum[t.ends[t.entry.get(i) as usize] as usize] += 1;
        }
        assert_eq!(by_sum, [0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]);
    }

    /// A D6 then, on a 6 only, a D3: the second position is laid out as a
    /// D3 wide; a D6 and a D3 on the same position share a D6 digit.
    #[test]
    fn dice_of_different_sides_share_a_position() {
        let t = FaceTable::build(|d: &mut Tape| {
            let a = d.roll(6);
            if a == 6 { 10 * d.roll(3) } else { d.roll(2) }
        })
        .unwrap();
        assert_eq!(t.widths, vec![6, 6]);
        let mut seen = std::collections::BTreeMap::new();
        for i in 0..t.size() as usize {
            *seen.entry(t.ends[t.entry.get(i) as usize]).or_insert(0) += 1;
        }
        // faces 1-5 then a D2 (3 digits a face), a 6 then a D3 (2 a face)
        let want: std::collections::BTreeMap<u32, u32> =
            [(1, 15), (2, 15), (10, 2), (20, 2), (30, 2)]
                .into_iter()
                .collect();
        assert_eq!(seen, want);
    }

    /// Four D6 kept in order (1,296 endings: entries of two bytes) and the
    /// same dice summed (21 endings: one byte): drawn from the same stream
    /// they draw the same combinations, so the ordered counts added up by
    /// sum are the summed counts, whatever the width.
    #[test]
    fn narrow_and_half_entries_read_the_same_combinations() {
        let ordered =
            FaceTable::build(|d: &mut Tape| [d.roll(6), d.roll(6), d.roll(6), d.roll(6)]).unwrap();
        let summed =
            FaceTable::build(|d: &mut Tape| d.roll(6) + d.roll(6) + d.roll(6) + d.roll(6)).unwrap();
        assert!(matches!(ordered.entry, Entries::Half(_)));
        assert!(matches!(summed.entry, Entries::Narrow(_)));
        for i in 0..1296 {
            let dice = ordered.ends()[ordered.entry.get(i) as usize];
            assert_eq!(
                summed.ends()[summed.entry.get(i) as usize],
                dice.iter().sum::<u32>()
            );
        }
        let trials = 50_000;
        let a = ordered.count(
            &mut BatchedRoller::new(3, &[4]),
            trials,
            |_| unreachable!(),
            |_| (),
        );
        let b = summed.count(
            &mut BatchedRoller::new(3, &[4]),
            trials,
            |_| unreachable!(),
            |_| (),
        );
        let mut by_sum = [0u64; 25];
        for (dice, n) in ordered.ends().iter().zip(&a) {
            by_sum[dice.iter().sum::<u32>() as usize] += n;
        }
        for (total, n) in summed.ends().iter().zip(&b) {
            assert_eq!(by_sum[*total as usize], *n, "total {total}");
        }
        assert_eq!(b.iter().sum::<u64>(), trials);
    }

    /// Draws one at a time: two D6 summed, each total's count held to its
    /// law (k-1 of 36 up to 7) by an exact binomial test at a stated
    /// false-alarm rate (1e-6 over the 11 totals), at a fixed seed; and an
    /// exploding D6 drawn past its table replays and rolls on (its mean
    /// 4.2 and variance 10.64 as in the test above).
    #[test]
    fn single_draws_follow_the_dice() {
        let t = FaceTable::build(|d: &mut Tape| d.roll(6) + d.roll(6)).unwrap();
        let mut roller = BatchedRoller::new(11, &[5]);
        let n = 200_000u64;
        let mut by_sum = [0u64; 13];
        for _ in 0..n {
            let i = t
                .draw(&mut roller, |_| unreachable!("nothing past"))
                .unwrap();
            by_sum[t.ends()[i] as usize] += 1;
        }
        for total in 2..=12u64 {
            let ways = 6 - total.abs_diff(7);
            let p =
                crate::dice::stats::binomial_p_value(by_sum[total as usize], n, ways as f64 / 36.0);
            assert!(
                p > 1e-6 / 11.0,
                "total {total}: {} of {n}",
                by_sum[total as usize]
            );
        }
        let explode = |d: &mut dyn FnMut(u32) -> u32| {
            let mut total = 0;
            loop {
                let f = d(6);
                total += f;
                if f < 6 {
                    return total;
                }
            }
        };
        let t = FaceTable::build(|d: &mut Tape| explode(&mut |s| d.roll(s))).unwrap();
        let mut sum = 0u64;
        for _ in 0..n {
            sum += u64::from(match t.draw(&mut roller, |d| explode(&mut |s| d.roll(s))) {
                Ok(i) => t.ends()[i],
                Err(total) => total,
            });
        }
        let mean = sum as f64 / n as f64;
        assert!(
            (mean - 4.2).abs() < 5.0 * (10.64f64 / n as f64).sqrt(),
            "{mean}"
        );
    }

    /// A trial that rolls no dice has one combination.
    #[test]
    fn a_trial_of_no_dice_is_one_combination() {
        let t = FaceTable::build(|_: &mut Tape| 7u8).unwrap();
        assert_eq!((t.size(), t.ends(), t.per_word), (1, &[7u8][..], 64));
        let counts = t.count(&mut BatchedRoller::new(1, &[2]), 1000, |_| 7, |_| ());
        assert_eq!(counts, vec![1000]);
    }

    /// Exploding sixes: the table stands for the first dice, a trial that
    /// explodes past them is marked and replays its faces.
    #[test]
    fn a_trial_past_the_table_replays_its_faces_then_rolls_on() {
        let explode = |d: &mut dyn FnMut(u32) -> u32| {
            let mut total = 0;
            loop {
                let f = d(6);
                total += f;
                if f < 6 {
                    return total;
                }
            }
        };
        let t = FaceTable::build(|d: &mut Tape| explode(&mut |s| d.roll(s))).unwrap();
        assert!(t.past() > 0, "some trials explode past the table");
        let mut roller = BatchedRoller::new(7, &[1]);
        let mut past = Vec::new();
        let counts = t.count(
            &mut roller,
            200_000,
            |d: &mut Overrun| explode(&mut |s| d.roll(s)),
            |end| past.push(end),
        );
        assert_eq!(counts.iter().sum::<u64>() + past.len() as u64, 200_000);
        // every ending past the table has all the table's sixes in it
        let depth = t.widths.len() as u32;
        assert!(past.iter().all(|&e| e > 6 * depth));
        // an exploding D6 is 6N + Y, N the sixes (P(N >= k) = 6^-k: mean
        // 1/5, variance 6/25) and Y the last face (1-5: mean 3, variance
        // 2): mean 4.2, variance 36 * 6/25 + 2 = 10.64; a fixed seed held
        // to five standard errors
        let total: u64 = counts
            .iter()
            .zip(t.ends())
            .map(|(n, &e)| n * u64::from(e))
            .sum::<u64>()
            + past.iter().map(|&e| u64::from(e)).sum::<u64>();
        let mean = total as f64 / 200_000.0;
        assert!(
            (mean - 4.2).abs() < 5.0 * (10.64f64 / 200_000.0).sqrt(),
            "{mean}"
        );
    }
}
