//! Walking a chain whose steps have exact laws: the fast samplers of
//! [`StepModel`](super::StepModel) (a step at a time) and
//! [`RepeatModel`](super::RepeatModel) (a round at a time).
//!
//! A chunk walks its own [`Walk`]: states are interned as the chunk meets
//! them, and a state met often enough in this chunk gets an alias table over
//! the states its step leads to, so from then on a step costs one random word
//! and a table lookup, with no hashing, no allocation and no record until
//! the chunk ends. A state met only a few times plays its step on real dice
//! (building a table would cost more than it saves), and so does a state
//! whose step has no law small enough to enumerate. Either way the step's
//! outcome has the same law, and which of the two a state uses depends only
//! on the chunk's own dice, so the tallies are the same for any thread
//! count. The laws themselves are computed once per model ([`SharedLaws`]),
//! up to a cap, so memory stays flat in the number of trials.

use crate::dice::{Alias, BatchedRoller, Lent};
use std::collections::BTreeMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

mod wide;

/// Visits to a state within one chunk before its law is laid out as an
/// alias table (until then its step plays on real dice).
pub const WARM_VISITS: u32 = 4;

/// Most outcomes a step's law may have to be drawn from: a larger law
/// plays on real dice.
pub const LAW_OUTCOMES: usize = 1 << 12;

/// Most laws a model keeps between chunks; past it laws are computed again
/// in each chunk that needs them (same values, no growth in memory).
pub const KEPT_LAWS: usize = 1 << 14;

/// A law over the keys of the states a step leads to.
pub type Law<K> = Arc<Vec<(K, f64)>>;

/// The laws of a model's steps, computed once per state and shared by every
/// chunk and by the exact evaluator (a state whose law cannot be enumerated
/// is kept as `None`).
#[derive(Debug)]
pub struct SharedLaws<K> {
    laws: Mutex<BTreeMap<K, Option<Law<K>>>>,
}

impl<K> Default for SharedLaws<K> {
    fn default() -> Self {
        SharedLaws {
            laws: Mutex::new(BTreeMap::new()),
        }
    }
}

impl<K: Ord + Clone> SharedLaws<K> {
    /// The law from `key`, computed by `compute` the first time (`None`:
    /// none small enough).
    pub fn get(&self, key: &K, compute: impl FnOnce() -> Option<Vec<(K, f64)>>) -> Option<Law<K>> {
        if let Some(law) = self.lock().get(key) {
            return law.clone();
        }
        // computed outside the lock: the other thread may compute the same
        // law meanwhile, and both get the same values
        let law = compute().filter(|l| !l.is_empty()).map(Arc::new);
        let mut laws = self.lock();
        if laws.len() < KEPT_LAWS {
            laws.insert(key.clone(), law.clone());
        }
        law
    }

    /// How many laws are kept.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<K, Option<Law<K>>>> {
        self.laws.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// What a state's step does in this chunk.
#[derive(Debug)]
enum Next {
    /// Not laid out yet: plays on real dice.
    Dice,
    /// Its law has no table (too large, or not enumerable): real dice.
    NoLaw,
    /// Always leads to the one state.
    Fixed(u32),
    /// One word through the alias table.
    Table(Alias<u32>),
}

/// The mark [`Walk::step_then`] sets on a state that is over (the top bit
/// of its id: a walk never interns 2^31 states).
pub const OVER: u32 = 1 << 31;

/// Trials [`Walk::run_until_over`] walks side by side.
pub const LANES: usize = 4;

/// Trials' endings [`Walk::run_until_over`] logs before it counts them
/// (a power of two, at least [`LANES`]; 8 KB: the log stays near the core).
const END_LOG: usize = 1024;

/// Columns a row of [`count_ending_log`]'s counts: a walk's trials end
/// at few states after few steps, so the same count comes back every few
/// entries, and each must wait for the last one's store unless they are
/// this many apart.
const COLUMNS: usize = 16;

/// Counts a log of trials' endings (where each went in the high 32 bits,
/// its steps in the low) into `ends` and `steps`, [`COLUMNS`] columns a
/// row, the log's i-th entry in column i % COLUMNS, so no count waits on
/// the last one's store. `steps` grows by whole rows, as they are read
/// back.
fn count_ending_log(log: &[u64], ends: &mut [u64], steps: &mut Vec<u64>) {
    let mut i = 0;
    while i < log.len() {
        // counted into the rows there are until an entry needs more (the
        // rows as a slice, so no count's store makes the loop read the
        // vector's length again)
        let rows = steps.as_mut_slice();
        while i < log.len() {
            let e = log[i];
            let column = i % COLUMNS;
            let n = COLUMNS * (e as u32) as usize + column;
            if n >= rows.len() {
                break;
            }
            ends[COLUMNS * (e >> 32) as usize + column] += 1;
            rows[n] += 1;
            i += 1;
        }
        if let Some(&e) = log.get(i) {
            let n = COLUMNS * (e as u32) as usize + i % COLUMNS;
            steps.resize((n / COLUMNS + 16) * COLUMNS, 0);
        }
    }
}

/// Set in a state's flat slot when its composed step always leads to the
/// one state (the slot's low half).
const FIXED: u64 = 1 << 63;

/// One column of a warm state's alias table with both outcomes already
/// followed up and marked [`OVER`] where over: a round from a warm state
/// is a word, a multiply, this entry and a compare.
#[derive(Clone, Copy, Debug)]
struct FlatColumn {
    keep: u64,
    own: u32,
    alias: u32,
}

/// One chunk's walk over interned states.
#[derive(Debug)]
pub struct Walk<K> {
    keys: Vec<K>,
    ids: foldhash::HashMap<K, u32>,
    next: Vec<Next>,
    visits: Vec<u32>,
    /// Per state: the state a deterministic follow-up leads to (`u32::MAX`:
    /// not yet asked).
    then: Vec<u32>,
    /// Per state: how many trials ended there.
    ends: Vec<u64>,
    /// Per state: whether it is over (0 not asked, 1 over, 2 not).
    over: Vec<u8>,
    /// Per state: where its composed step lies in `flat` (offset in the
    /// high half, columns in the low), [`FIXED`] with the one state it
    /// leads to, or 0 while it is not laid out.
    flat_at: Vec<u64>,
    /// The composed steps of every warm state, end to end.
    flat: Vec<FlatColumn>,
    /// Beside each of `flat`'s columns: where its own and its alias were
    /// before the follow-up (the states a first round's metrics read).
    played: Vec<(u32, u32)>,
    /// Per state: its slot in `wide` (its guide's offset in the high half,
    /// the bits of a word the guide reads in the low), 0 while it is not
    /// laid out.
    wide_at: Vec<u64>,
    /// The wide lanes' guide tables of every warm state, end to end (see
    /// `wide`).
    wide: Vec<u64>,
    /// The outcomes of every warm state's law, by cumulative threshold.
    wide_thresholds: Vec<wide::Threshold>,
    /// Where each warm state's guide and thresholds lie.
    wide_guides: Vec<wide::Guide>,
    /// Per state not laid out yet: the outcomes that lead to it (guide,
    /// threshold), pointed at it once it is.
    wide_waiting: Vec<Vec<(u32, u32)>>,
    /// Whether [`Walk::run_until_over`] walks wide where it can.
    wide_lanes: bool,
}

impl<K: Clone + Eq + Hash> Default for Walk<K> {
    fn default() -> Self {
        Walk {
            keys: Vec::new(),
            ids: Default::default(),
            next: Vec::new(),
            visits: Vec::new(),
            then: Vec::new(),
            ends: Vec::new(),
            over: Vec::new(),
            flat_at: Vec::new(),
            flat: Vec::new(),
            played: Vec::new(),
            wide_at: Vec::new(),
            wide: Vec::new(),
            wide_thresholds: Vec::new(),
            wide_guides: Vec::new(),
            wide_waiting: Vec::new(),
            wide_lanes: true,
        }
    }
}

impl<K: Clone + Eq + Hash> Walk<K> {
    /// The id of `key`, interning it the first time.
    pub fn id(&mut self, key: &K) -> u32 {
        if let Some(&i) = self.ids.get(key) {
            return i;
        }
        let i = self.keys.len() as u32;
        self.keys.push(key.clone());
        self.ids.insert(key.clone(), i);
        self.next.push(Next::Dice);
        self.visits.push(0);
        self.then.push(u32::MAX);
        self.ends.push(0);
        self.over.push(0);
        self.flat_at.push(0);
        self.wide_at.push(0);
        i
    }

    /// Whether [`Walk::run_until_over`] walks wide (32 lanes, see
    /// `walk/wide.rs`) where no first steps are counted (the default), or
    /// in the narrow lanes.
    pub fn set_wide(&mut self, wide: bool) {
        self.wide_lanes = wide;
    }

    /// The state at `id`.
    pub fn key(&self, id: u32) -> &K {
        &self.keys[id as usize]
    }

    /// How many states the chunk has met.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether it has met none.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// One step from `id`: a draw from its table once the state is warm
    /// (`law` gives the step's exact law the first time), else `play` on
    /// real dice.
    #[inline]
    pub fn step(
        &mut self,
        id: u32,
        roller: &mut BatchedRoller,
        law: impl FnOnce(&K) -> Option<Law<K>>,
        play: impl FnOnce(&K, &mut BatchedRoller) -> K,
    ) -> u32 {
        let i = id as usize;
        match &self.next[i] {
            Next::Fixed(to) => return *to,
            Next::Table(t) => return *t.sample(roller.next_word()),
            Next::NoLaw => {}
            Next::Dice => {
                self.visits[i] += 1;
                if self.visits[i] >= WARM_VISITS {
                    self.lay_out(i, law);
                    match &self.next[i] {
                        Next::Fixed(to) => return *to,
                        Next::Table(t) => return *t.sample(roller.next_word()),
                        _ => {}
                    }
                }
            }
        }
        let to = play(&self.keys[i], roller);
        self.id(&to)
    }

    #[cold]
    fn lay_out(&mut self, i: usize, law: impl FnOnce(&K) -> Option<Law<K>>) {
        self.next[i] = match law(&self.keys[i]).filter(|l| l.len() <= LAW_OUTCOMES) {
            None => Next::NoLaw,
            Some(law) => {
                let to: Vec<(u32, f64)> = law.iter().map(|(k, p)| (self.id(k), *p)).collect();
                if to.len() == 1 {
                    Next::Fixed(to[0].0)
                } else {
                    Next::Table(Alias::new(&to))
                }
            }
        };
    }

    /// The state `follow` makes of the state at `id` (memoised).
    #[inline]
    pub fn then(&mut self, id: u32, follow: impl FnOnce(&K) -> K) -> u32 {
        let i = id as usize;
        if self.then[i] == u32::MAX {
            let next = follow(&self.keys[i]);
            self.then[i] = self.id(&next);
        }
        self.then[i]
    }

    /// `id`, marked [`OVER`] when `over` says its state is (memoised).
    #[inline]
    pub fn marked(&mut self, id: u32, over: impl FnOnce(&K) -> bool) -> u32 {
        let i = id as usize;
        if self.over[i] == 0 {
            self.over[i] = if over(&self.keys[i]) { 1 } else { 2 };
        }
        if self.over[i] == 1 { id | OVER } else { id }
    }

    /// One step from `id` and its deterministic follow-up (a round and
    /// what ends it), the state reached marked [`OVER`] when over: the
    /// same law as [`Walk::step`] then [`Walk::then`], with the same draw,
    /// but once the state is warm the follow-up and the mark are laid out
    /// in its table, so the step is one flat look-up.
    #[inline]
    pub fn step_then(
        &mut self,
        id: u32,
        roller: &mut BatchedRoller,
        law: impl FnOnce(&K) -> Option<Law<K>>,
        play: impl FnOnce(&K, &mut BatchedRoller) -> K,
        follow: impl Fn(&K) -> K,
        over: impl Fn(&K) -> bool,
    ) -> u32 {
        let slot = self.flat_at[id as usize];
        if slot & FIXED != 0 {
            return slot as u32;
        }
        if slot != 0 {
            let wide = u128::from(roller.next_word()) * u128::from(slot as u32);
            let c = &self.flat[(slot >> 32) as usize + (wide >> 64) as usize];
            return if (wide as u64) < c.keep {
                c.own
            } else {
                c.alias
            };
        }
        self.step_then_cold(id, roller, law, play, follow, over).1
    }

    /// Runs `trials` trials from `start` (not over), each a [`Walk::step_then`]
    /// at a time until over, counting where each ended ([`Walk::ends`]),
    /// after how many steps (`lengths`) and, given `firsts`, where each
    /// first step led before its follow-up (by state id).
    ///
    /// [`LANES`] trials walk side by side, and a trial that ends hands its
    /// lane to the next one without a branch: the exit of a walk is as
    /// likely as its dice make it, so a loop that branched on it would
    /// stall on every other step, while lanes let the steps of different
    /// trials overlap. Which trial draws which word depends only on the
    /// chunk's dice, so tallies stay the same for any thread count.
    #[allow(clippy::too_many_arguments)]
    pub fn run_until_over(
        &mut self,
        start: u32,
        trials: u64,
        roller: &mut BatchedRoller,
        law: impl Fn(&K) -> Option<Law<K>>,
        play: impl Fn(&K, &mut BatchedRoller) -> K,
        follow: impl Fn(&K) -> K,
        over: impl Fn(&K) -> bool,
        lengths: &mut Counts,
        firsts: Option<&mut Counts>,
    ) {
        // counting first steps costs a little on every step: compiled in
        // only where they are asked for; without them, wide where it pays
        if firsts.is_none() && self.wide_lanes {
            let step = |walk: &mut Self, id: u32, roller: &mut BatchedRoller| {
                walk.step_then(id, roller, &law, &play, &follow, &over)
            };
            self.run_wide(start, trials, roller, step, lengths, true);
        } else if firsts.is_some() {
            self.lanes::<true>(
                start, trials, roller, law, play, follow, over, lengths, firsts,
            );
        } else {
            self.lanes::<false>(
                start, trials, roller, law, play, follow, over, lengths, None,
            );
        }
    }

    /// [`Walk::run_until_over`], counting first steps where `FIRSTS`.
    #[allow(clippy::too_many_arguments)]
    fn lanes<const FIRSTS: bool>(
        &mut self,
        start: u32,
        trials: u64,
        roller: &mut BatchedRoller,
        law: impl Fn(&K) -> Option<Law<K>>,
        play: impl Fn(&K, &mut BatchedRoller) -> K,
        follow: impl Fn(&K) -> K,
        over: impl Fn(&K) -> bool,
        lengths: &mut Counts,
        mut firsts: Option<&mut Counts>,
    ) {
        debug_assert_eq!(FIRSTS, firsts.is_some());
        // a step from `id`, the first of its trial when `first`: counted
        // where it led before its follow-up when firsts are asked for
        let mut slow =
            |walk: &mut Self, id: u32, first: bool, roller: &mut BatchedRoller| match firsts
                .as_deref_mut()
                .filter(|_| first)
            {
                Some(firsts) => {
                    let (played, to) = walk.step_then_cold(id, roller, &law, &play, &follow, &over);
                    firsts.add(played as usize);
                    to
                }
                None => walk.step_then(id, roller, &law, &play, &follow, &over),
            };
        // ends and lengths drawn from the table counted here
        // ([`count_ending_log`]); first steps each lane's unfinished steps
        // into a slot of its own (the first LANES)
        let mut ends = vec![0u64; COLUMNS * self.keys.len()];
        let mut steps = vec![0u64; COLUMNS * 16];
        let mut first_columns = vec![0u64; LANES];
        // each step writes its trial's ending (where it went, its steps) to
        // the next place of a log, which moves on only where the trial
        // ended: a store a step instead of two counts read and written;
        // the log is counted a block at a time (twice the block long, so a
        // masked index needs no bounds check)
        let mut log = [0u64; 2 * END_LOG];
        let mut logged = 0usize;
        let mut at = [start; LANES];
        let mut taken = [0usize; LANES];
        let mut started = (LANES as u64).min(trials);
        if trials >= LANES as u64 {
            // the stream lent out, so its state stays in registers between
            // the look-ups (the cold path takes the roller back)
            roller.lend(|words| {
                // one round of lane `$lane` (written out four times, so
                // each lane's state is a register, not a slot read back)
                macro_rules! round {
                    ($lane:expr) => {{
                        let lane: usize = $lane;
                        let to = match self.flat_draw(at[lane], words) {
                            Some((to, column)) => {
                                if FIRSTS {
                                    // `at` is the start on a first step
                                    let first = 0usize.wrapping_sub(usize::from(taken[lane] == 0));
                                    let slot = LANES + column;
                                    if slot >= first_columns.len() {
                                        first_columns.resize(slot + 1, 0);
                                    }
                                    first_columns[(slot & first) | (lane & !first)] += 1;
                                }
                                to
                            }
                            None => {
                                let to =
                                    words.roller(|r| slow(self, at[lane], taken[lane] == 0, r));
                                if ends.len() < COLUMNS * self.keys.len() {
                                    ends.resize(COLUMNS * self.keys.len(), 0);
                                }
                                to
                            }
                        };
                        // all ones when the trial is over (selects by mask:
                        // a branch here would be the unpredictable exit again)
                        let done = 0usize.wrapping_sub((to >> 31) as usize);
                        let n = taken[lane] + 1;
                        log[logged & (2 * END_LOG - 1)] = (u64::from(to & !OVER) << 32) | n as u64;
                        logged += done & 1;
                        at[lane] = (start & done as u32) | (to & !done as u32);
                        taken[lane] = n & !done;
                        started += (done & 1) as u64;
                    }};
                }
                const _: () = assert!(LANES == 4);
                while started + LANES as u64 <= trials {
                    round!(0);
                    round!(1);
                    round!(2);
                    round!(3);
                    if logged >= END_LOG {
                        count_ending_log(&log[..logged], &mut ends, &mut steps);
                        logged = 0;
                    }
                }
            });
            count_ending_log(&log[..logged], &mut ends, &mut steps);
        }
        // the trials in flight, each to its end, then the rest one by one
        let in_flight = at.into_iter().zip(taken).take(started as usize);
        let rest = (started..trials).map(|_| (start, 0));
        self.finish(
            in_flight.chain(rest),
            |walk, id, first, r| slow(walk, id, first, r),
            roller,
            (&ends, &steps),
            lengths,
        );
        if let Some(firsts) = firsts {
            let start_columns = &self.played[(self.flat_at[start as usize] >> 32) as usize..];
            for (slot, &count) in first_columns.iter().enumerate().skip(LANES) {
                if count > 0 {
                    // a column's outcome, before its follow-up
                    let (column, alias) = ((slot - LANES) / 2, (slot - LANES) % 2 == 1);
                    let (own, other) = start_columns[column];
                    firsts.add_n(if alias { other } else { own } as usize, count);
                }
            }
        }
    }

    /// Walks each of `trials` (a state id, its steps so far) to its end one
    /// step at a time (`step` told whether it is the trial's first), and
    /// counts the ending logs' counts (`ends` by state, `steps` by length,
    /// [`COLUMNS`] a row) and those trials into the walk's ends and
    /// `lengths`.
    fn finish(
        &mut self,
        trials: impl Iterator<Item = (u32, usize)>,
        mut step: impl FnMut(&mut Self, u32, bool, &mut BatchedRoller) -> u32,
        roller: &mut BatchedRoller,
        (ends, steps): (&[u64], &[u64]),
        lengths: &mut Counts,
    ) {
        for (mut id, mut n) in trials {
            while id & OVER == 0 {
                id = step(self, id, n == 0, roller);
                n += 1;
            }
            self.ends[(id & !OVER) as usize] += 1;
            lengths.add(n);
        }
        for (i, columns) in ends.chunks_exact(COLUMNS).enumerate() {
            self.ends[i] += columns.iter().sum::<u64>();
        }
        for (n, columns) in steps.chunks_exact(COLUMNS).enumerate() {
            lengths.add_n(n, columns.iter().sum());
        }
    }

    /// Runs `trials` trials of `steps` steps each from `start` (a chain
    /// with no end but its step count, as a [`StepModel`](super::StepModel)'s
    /// groups of steps), counting where each ended ([`Walk::ends`]).
    /// [`LANES`] trials walk side by side, as in
    /// [`Walk::run_until_over`], so a trial's steps, each a look-up that
    /// waits on the last, overlap with the other lanes'.
    #[allow(clippy::too_many_arguments)]
    pub fn run_steps(
        &mut self,
        start: u32,
        steps: usize,
        trials: u64,
        roller: &mut BatchedRoller,
        law: impl Fn(&K) -> Option<Law<K>>,
        play: impl Fn(&K, &mut BatchedRoller) -> K,
        follow: impl Fn(&K) -> K,
    ) {
        let never = |_: &K| false;
        let groups = trials / LANES as u64;
        roller.lend(|words| {
            for _ in 0..groups {
                let mut at = [start; LANES];
                for _ in 0..steps {
                    for id in &mut at {
                        *id = match self.flat_step(*id, words) {
                            Some(to) => to,
                            None => words
                                .roller(|r| self.step_then(*id, r, &law, &play, &follow, never)),
                        };
                    }
                }
                for id in at {
                    self.ends[id as usize] += 1;
                }
            }
        });
        for _ in groups * LANES as u64..trials {
            let mut id = start;
            for _ in 0..steps {
                id = self.step_then(id, roller, &law, &play, &follow, never);
            }
            self.ends[id as usize] += 1;
        }
    }

    /// One step from `id` through its flat layout: a look-up where it has
    /// a table, the one state where it always leads there, `None` while it
    /// is cold ([`Walk::step_then`] takes it).
    #[inline(always)]
    fn flat_step(&self, id: u32, words: &mut Lent<'_>) -> Option<u32> {
        let slot = self.flat_at[id as usize];
        if slot & FIXED != 0 {
            return Some(slot as u32);
        }
        if slot == 0 {
            return None;
        }
        let wide = u128::from(words.next_word()) * u128::from(slot as u32);
        let c = &self.flat[(slot >> 32) as usize + (wide >> 64) as usize];
        Some(if (wide as u64) < c.keep {
            c.own
        } else {
            c.alias
        })
    }

    /// One step from `id` through its flat layout, if it has one with a
    /// table (a state that is cold or always leads to the one state is
    /// `None`: [`Walk::step_then`] takes it), with the column drawn (twice
    /// its index, plus one where it went to the alias).
    #[inline(always)]
    fn flat_draw(&self, id: u32, words: &mut Lent<'_>) -> Option<(u32, usize)> {
        let slot = self.flat_at[id as usize];
        if slot == 0 || slot & FIXED != 0 {
            return None;
        }
        let wide = u128::from(words.next_word()) * u128::from(slot as u32);
        let column = (wide >> 64) as usize;
        let c = &self.flat[(slot >> 32) as usize + column];
        let alias = (wide as u64) >= c.keep;
        Some((
            if alias { c.alias } else { c.own },
            column * 2 + usize::from(alias),
        ))
    }

    /// [`Walk::step_then`] from a state not laid out flat yet: the step as
    /// [`Walk::step`] plays it, then the flat layout once it is warm; with
    /// where the step led before its follow-up.
    #[inline(never)]
    fn step_then_cold(
        &mut self,
        id: u32,
        roller: &mut BatchedRoller,
        law: impl FnOnce(&K) -> Option<Law<K>>,
        play: impl FnOnce(&K, &mut BatchedRoller) -> K,
        follow: impl Fn(&K) -> K,
        over: impl Fn(&K) -> bool,
    ) -> (u32, u32) {
        let played = self.step(id, roller, law, play);
        let next = self.then(played, &follow);
        let marked = self.marked(next, &over);
        let i = id as usize;
        match &self.next[i] {
            Next::Fixed(to) => {
                let to = *to;
                let then = self.then(to, &follow);
                self.flat_at[i] = FIXED | u64::from(self.marked(then, &over));
            }
            Next::Table(t) => {
                let columns: Vec<(u64, u32, u32)> = t
                    .columns()
                    .map(|(k, &own, &alias)| (k, own, alias))
                    .collect();
                let at = self.flat.len() as u64;
                for (keep, own, alias) in columns {
                    let (played_own, played_alias) = (own, alias);
                    let own = self.then(own, &follow);
                    let alias = self.then(alias, &follow);
                    let column = FlatColumn {
                        keep,
                        own: self.marked(own, &over),
                        alias: self.marked(alias, &over),
                    };
                    self.flat.push(column);
                    self.played.push((played_own, played_alias));
                }
                self.flat_at[i] = at << 32 | (self.flat.len() as u64 - at);
            }
            Next::Dice | Next::NoLaw => {}
        }
        (played, marked)
    }

    /// The step from `id` as laid out once warm, as alias columns
    /// (threshold, own, alias) over the states it leads to: one column
    /// that always keeps its own where the step is fixed; `None` while
    /// it plays on real dice.
    pub fn columns(&self, id: u32) -> Option<Vec<(u64, u32, u32)>> {
        match &self.next[id as usize] {
            Next::Fixed(to) => Some(vec![(u64::MAX, *to, *to)]),
            Next::Table(t) => Some(t.columns().map(|(k, &o, &a)| (k, o, a)).collect()),
            Next::Dice | Next::NoLaw => None,
        }
    }

    /// Counts a trial that ended at `id`.
    #[inline]
    pub fn end(&mut self, id: u32) {
        self.ends[id as usize] += 1;
    }

    /// Every state some trial ended at, with how many did.
    pub fn ends(&self) -> impl Iterator<Item = (&K, u64)> {
        self.keys
            .iter()
            .zip(&self.ends)
            .filter(|(_, n)| **n > 0)
            .map(|(k, n)| (k, *n))
    }
}

/// Endings counted in a dense table where the rule gives each a slot
/// (equal slots meaning equal endings), hashed otherwise: the first ending
/// met at a slot stands for every one counted there.
#[derive(Debug)]
pub struct DenseEnds<K> {
    counts: Vec<u64>,
    states: Vec<Option<K>>,
    others: Walk<K>,
}

impl<K: Clone + Eq + Hash> DenseEnds<K> {
    /// A table of `slots` slots.
    pub fn new(slots: usize) -> Self {
        DenseEnds {
            counts: vec![0; slots],
            states: vec![None; slots],
            others: Walk::default(),
        }
    }

    /// Counts an ending at `slot` (hashed when `None` or out of the table).
    #[inline]
    pub fn add(&mut self, slot: Option<usize>, end: K) {
        match slot.filter(|&i| i < self.counts.len()) {
            Some(i) => {
                self.counts[i] += 1;
                if self.counts[i] == 1 {
                    self.states[i] = Some(end);
                }
            }
            None => {
                let id = self.others.id(&end);
                self.others.end(id);
            }
        }
    }

    /// Every ending counted, with how many.
    pub fn ends(&self) -> impl Iterator<Item = (&K, u64)> {
        self.states
            .iter()
            .zip(&self.counts)
            .filter_map(|(s, &n)| s.as_ref().map(|s| (s, n)))
            .chain(self.others.ends())
    }
}

/// A histogram over small counts (rounds a trial took, say).
#[derive(Debug, Default)]
pub struct Counts(Vec<u64>);

impl Counts {
    /// Counts one at `i`.
    #[inline]
    pub fn add(&mut self, i: usize) {
        if self.0.len() <= i {
            self.0.resize(i + 1, 0);
        }
        self.0[i] += 1;
    }

    /// Counts `n` at `i`.
    pub fn add_n(&mut self, i: usize, n: u64) {
        if n > 0 {
            if self.0.len() <= i {
                self.0.resize(i + 1, 0);
            }
            self.0[i] += n;
        }
    }

    /// Every `i` counted, with its count.
    pub fn iter(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        self.0
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(i, n)| (i, *n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Roller;

    /// A coin walk: from `n` heads so far, a d6 of 4+ adds one.
    fn law(k: &u32) -> Option<Law<u32>> {
        Some(Arc::new(vec![(*k, 0.5), (k + 1, 0.5)]))
    }

    #[test]
    fn warm_states_draw_from_their_table_and_cold_ones_roll() {
        let mut w: Walk<u32> = Walk::default();
        let mut r = BatchedRoller::new(1, &[0]);
        let start = w.id(&0);
        let mut laws_asked = 0;
        for _ in 0..WARM_VISITS + 5 {
            w.step(
                start,
                &mut r,
                |k| {
                    laws_asked += 1;
                    law(k)
                },
                |k, r| k + u32::from(r.d6() >= 4),
            );
        }
        // the law is asked for once, on the warming visit
        assert_eq!(laws_asked, 1);
        assert!(matches!(w.next[start as usize], Next::Table(_)));
    }

    #[test]
    fn a_walk_ends_where_its_laws_and_its_dice_lead() {
        // a countdown that drops by 1 or 2 (a die of 1-3 or 4-6): from 3 it
        // ends at 0 or -1; P(-1) = 3/8 (f(1) = 1/2, f(2) = 1/4, f(3) =
        // (f(2) + f(1)) / 2). The first visits roll the die, the rest draw
        // from the law: both must give it.
        let mut w: Walk<i32> = Walk::default();
        let mut roller = BatchedRoller::new(1, &[0]);
        let start = w.id(&3);
        let law = |s: &i32| Some(Arc::new(vec![(s - 1, 0.5), (s - 2, 0.5)]));
        let play = |s: &i32, r: &mut BatchedRoller| if r.d6() <= 3 { s - 1 } else { s - 2 };
        let n = 100_000u64;
        for _ in 0..n {
            let mut at = start;
            while *w.key(at) > 0 {
                at = w.step(at, &mut roller, law, play);
            }
            w.end(at);
        }
        let ends: BTreeMap<i32, u64> = w.ends().map(|(k, n)| (*k, n)).collect();
        assert_eq!(ends.values().sum::<u64>(), n);
        // a binomial test at a stated false-alarm rate of 1e-6, fixed seed;
        // P = 1/2 (a walk that ignored the second step) fails it by far
        let minus = ends[&-1];
        let p = crate::dice::stats::binomial_p_value(minus, n, 0.375);
        assert!(p > 1e-6, "{minus} of {n}: p = {p}");
        assert!(crate::dice::stats::binomial_p_value(minus, n, 0.5) < 1e-6);
    }

    #[test]
    fn a_composed_walk_ends_where_its_laws_its_follow_ups_and_its_dice_lead() {
        // the countdown above, each step followed by a deterministic
        // clamp (below 0 becomes -1, a no-op here, and 2 becomes 1, which
        // is not): from 3 a step leads to 2 or 1, and 2 is followed up to
        // 1, so P(end at -1) = P(from 1: a drop of 2) = 1/2, not 3/8.
        let mut w: Walk<i32> = Walk::default();
        let mut roller = BatchedRoller::new(2, &[0]);
        let law = |s: &i32| Some(Arc::new(vec![(s - 1, 0.5), (s - 2, 0.5)]));
        let play = |s: &i32, r: &mut BatchedRoller| if r.d6() <= 3 { s - 1 } else { s - 2 };
        let follow = |s: &i32| if *s == 2 { 1 } else { (*s).max(-1) };
        let over = |s: &i32| *s <= 0;
        let start = w.id(&3);
        assert_eq!(w.marked(start, over), start);
        let n = 100_000u64;
        for _ in 0..n {
            let mut at = start;
            while at & OVER == 0 {
                at = w.step_then(at, &mut roller, law, play, follow, over);
            }
            w.end(at & !OVER);
        }
        // both warm states are laid out flat, and no trial stops at 2
        assert_ne!(w.flat_at[start as usize], 0);
        assert_ne!(w.flat_at[w.ids[&1] as usize], 0);
        let ends: BTreeMap<i32, u64> = w.ends().map(|(k, n)| (*k, n)).collect();
        assert_eq!(ends.keys().copied().collect::<Vec<_>>(), vec![-1, 0]);
        let minus = ends[&-1];
        let p = crate::dice::stats::binomial_p_value(minus, n, 0.5);
        assert!(p > 1e-6, "{minus} of {n}: p = {p}");
        // a walk that skipped the follow-up in its flat table gets 3/8
        assert!(crate::dice::stats::binomial_p_value(minus, n, 0.375) < 1e-6);
    }

    #[test]
    fn shared_laws_keep_their_answers_and_walks_skip_laws_too_large() {
        let laws: SharedLaws<u32> = SharedLaws::default();
        assert!(laws.get(&7, || None).is_none());
        // asked again, the kept answer is used without computing
        assert!(laws.get(&7, || unreachable!("kept")).is_none());
        assert!(laws.get(&1, || law(&1).map(|l| l.to_vec())).is_some());
        assert_eq!(laws.len(), 2);
        // a law too large for a table: the state keeps rolling real dice
        let big: Law<u32> = Arc::new((0..=LAW_OUTCOMES as u32).map(|k| (k, 1.0)).collect());
        let mut w: Walk<u32> = Walk::default();
        let mut r = BatchedRoller::new(1, &[0]);
        let start = w.id(&0);
        for _ in 0..WARM_VISITS {
            w.step(start, &mut r, |_| Some(big.clone()), |k, _| k + 1);
        }
        assert!(matches!(w.next[start as usize], Next::NoLaw));
    }

    /// The countdown above run by lanes: from 3, a step drops 1 or 2 and
    /// it is over at 0 or below. By hand: it ends at -1 with 3/8; it takes
    /// 3 steps only along 3 -> 2 -> 1 (1/4), else 2; the first step leads
    /// to 2 or 1 with 1/2 each.
    fn countdown_by_lanes(trials: u64, firsts: bool) -> (BTreeMap<i32, u64>, Counts, Counts) {
        let mut w: Walk<i32> = Walk::default();
        let mut roller = BatchedRoller::new(3, &[0]);
        let law = |s: &i32| Some(Arc::new(vec![(s - 1, 0.5), (s - 2, 0.5)]));
        let play = |s: &i32, r: &mut BatchedRoller| if r.d6() <= 3 { s - 1 } else { s - 2 };
        let start = w.id(&3);
        let (mut lengths, mut first) = (Counts::default(), Counts::default());
        let over = |s: &i32| *s <= 0;
        w.run_until_over(
            start,
            trials,
            &mut roller,
            law,
            play,
            |s| *s,
            over,
            &mut lengths,
            firsts.then_some(&mut first),
        );
        // firsts by state, not by id
        let mut by_state = Counts::default();
        for (id, n) in first.iter() {
            by_state.add_n(*w.key(id as u32) as usize, n);
        }
        (w.ends().map(|(k, n)| (*k, n)).collect(), lengths, by_state)
    }

    /// The ending log counted by rows: a length that makes `steps` grow
    /// from a column other than the first, then a length at the row just
    /// past the growth, are both counted (growing by a part row lost it).
    #[test]
    fn an_ending_log_counts_every_length_whatever_its_column() {
        let entry = |end: u64, steps: u64| (end << 32) | steps;
        let log = [
            entry(0, 1),
            entry(1, 20),
            entry(0, 2),
            entry(1, 3),
            entry(0, 36),
        ];
        let mut ends = vec![0u64; COLUMNS * 2];
        let mut steps = vec![0u64; COLUMNS * 16];
        count_ending_log(&log, &mut ends, &mut steps);
        let rows =
            |v: &[u64]| -> Vec<u64> { v.chunks_exact(COLUMNS).map(|r| r.iter().sum()).collect() };
        assert_eq!(rows(&ends), vec![3, 2]);
        let by_length = rows(&steps);
        for (n, want) in [(1, 1), (2, 1), (3, 1), (20, 1), (36, 1)] {
            assert_eq!(by_length[n], want, "{n} steps");
        }
        assert_eq!(by_length.iter().sum::<u64>(), 5);
    }

    /// Long walks: a state that ends on a 6 and stays otherwise, so a
    /// trial's steps are geometric (1/6), many past the lanes' first rows
    /// of counts: every trial counted once at its length, by hand P(1 step)
    /// = 1/6, P(more than 20) = (5/6)^20.
    #[test]
    fn lanes_count_long_walks_at_their_lengths() {
        use crate::dice::stats::binomial_p_value;
        let trials = 200_003u64;
        let mut w: Walk<u8> = Walk::default();
        let mut roller = BatchedRoller::new(7, &[0]);
        let law = |s: &u8| (*s == 0).then(|| Arc::new(vec![(0u8, 5.0 / 6.0), (1u8, 1.0 / 6.0)]));
        let play = |s: &u8, r: &mut BatchedRoller| if *s == 0 && r.d6() < 6 { 0 } else { 1 };
        let start = w.id(&0);
        let mut lengths = Counts::default();
        w.run_until_over(
            start,
            trials,
            &mut roller,
            law,
            play,
            |s| *s,
            |s| *s == 1,
            &mut lengths,
            None,
        );
        let by_length: BTreeMap<usize, u64> = lengths.iter().collect();
        assert_eq!(by_length.values().sum::<u64>(), trials);
        assert!(by_length.keys().all(|&n| n >= 1));
        assert!(
            *by_length.keys().last().unwrap() > 40,
            "some walks are long"
        );
        assert!(binomial_p_value(by_length[&1], trials, 1.0 / 6.0) > 1e-6);
        let past_20: u64 = by_length.range(21..).map(|(_, n)| n).sum();
        assert!(binomial_p_value(past_20, trials, (5.0f64 / 6.0).powi(20)) > 1e-6);
    }

    /// Three steps of a coin (a D6 of 4+ adds one), the walk's fixed-step
    /// lanes: every trial counted once, whatever the count left over after
    /// the lanes, and the ends follow Binomial(3, 1/2) by hand: 1, 3, 3, 1
    /// in 8. A lane that walked one step too few or too many, or a trial
    /// counted twice, fails.
    #[test]
    fn fixed_steps_in_lanes_end_where_their_coins_lead() {
        use crate::dice::stats::binomial_p_value;
        let run = |trials: u64| {
            let mut w: Walk<u32> = Walk::default();
            let mut roller = BatchedRoller::new(5, &[0]);
            let start = w.id(&0);
            let play = |k: &u32, r: &mut BatchedRoller| k + u32::from(r.d6() >= 4);
            w.run_steps(start, 3, trials, &mut roller, law, play, |k| *k);
            w.ends()
                .map(|(k, n)| (*k, n))
                .collect::<BTreeMap<u32, u64>>()
        };
        for trials in [0, 1, LANES as u64 - 1, LANES as u64, 4 * LANES as u64 + 3] {
            assert_eq!(run(trials).values().sum::<u64>(), trials);
        }
        let n = 400_001;
        let ends = run(n);
        assert_eq!(ends.keys().copied().collect::<Vec<_>>(), vec![0, 1, 2, 3]);
        for (k, want) in [
            (0, 1.0 / 8.0),
            (1, 3.0 / 8.0),
            (2, 3.0 / 8.0),
            (3, 1.0 / 8.0),
        ] {
            let p = binomial_p_value(ends[&k], n, want);
            assert!(p > 1e-6 / 4.0, "{k}: {} of {n}: p = {p}", ends[&k]);
        }
        // two steps' law would put 1/4 at 0
        assert!(binomial_p_value(ends[&0], n, 0.25) < 1e-6);
    }

    #[test]
    fn lanes_end_where_the_walk_does_count_every_trial_once_and_its_first_steps() {
        use crate::dice::stats::binomial_p_value;
        // fewer trials than lanes, none, and a count that leaves some over
        for trials in [0, 1, LANES as u64 - 1, LANES as u64, 4 * LANES as u64 + 3] {
            let (ends, lengths, firsts) = countdown_by_lanes(trials, true);
            assert_eq!(ends.values().sum::<u64>(), trials);
            assert_eq!(lengths.iter().map(|(_, n)| n).sum::<u64>(), trials);
            assert_eq!(firsts.iter().map(|(_, n)| n).sum::<u64>(), trials);
        }
        let n = 200_003;
        for count_firsts in [false, true] {
            let (ends, lengths, firsts) = countdown_by_lanes(n, count_firsts);
            assert_eq!(ends.values().sum::<u64>(), n);
            let minus = ends[&-1];
            assert!(binomial_p_value(minus, n, 0.375) > 1e-6, "{minus} of {n}");
            assert!(binomial_p_value(minus, n, 0.5) < 1e-6);
            let by_length: BTreeMap<usize, u64> = lengths.iter().collect();
            assert_eq!(by_length.keys().copied().collect::<Vec<_>>(), vec![2, 3]);
            assert!(binomial_p_value(by_length[&3], n, 0.25) > 1e-6);
            // a lane that miscounted a recycled trial's steps by one would
            // put trials at 1 or 4 steps, or move mass between 2 and 3
            assert!(binomial_p_value(by_length[&3], n, 0.375) < 1e-6);
            let by_first: BTreeMap<usize, u64> = firsts.iter().collect();
            if count_firsts {
                assert_eq!(by_first.keys().copied().collect::<Vec<_>>(), vec![1, 2]);
                assert!(binomial_p_value(by_first[&2], n, 0.5) > 1e-6);
                assert_eq!(by_first.values().sum::<u64>(), n);
            } else {
                assert!(by_first.is_empty());
            }
        }
    }
}
