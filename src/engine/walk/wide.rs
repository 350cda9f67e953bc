//! The walk thirty-two trials at a time: [`Walk::run_until_over`]'s lanes when
//! no first steps are counted.
//!
//! Each lane carries its state as a *slot*: where the state's guide table
//! starts (high half) and how many of a word's top bits index it (low
//! half). A warm state's law is laid out as its outcomes' cumulative
//! thresholds in whole 64-bit words (inversion: a word below the first
//! threshold draws the first outcome, and so on, the law of its alias
//! table to the unit of the word), and the guide table says, for each
//! value of the top bits, the slot of the one outcome every word with
//! those bits draws, or, where a threshold falls among them, where to
//! compare the word with the thresholds. So a step is a word, a shift and
//! one look-up, and a compare now and then. The lanes draw their words
//! from xoshiro256++ streams of their own seeded from the chunk's roller
//! ([`LaneStreams`]), eight lanes to a vector, four vectors: with AVX-512 a step of eight
//! lanes is one generator step and one gather; without it the scalar twin
//! below does the same lane by lane, and both give the same tallies from
//! the same chunk (a test holds them together). A state not laid out yet
//! has a slot with no bits (its id in the high half): its lanes leave the
//! vector for [`Walk::step_then`], on the chunk's own roller, as every
//! cold step does.

use super::{COLUMNS, Counts, END_LOG, FIXED, OVER, Walk, count_ending_log};
use crate::dice::{BatchedRoller, LaneStreams, STREAMS, lanes_by_vector};
use std::hash::Hash;

/// Trials the wide walk steps together.
pub const WIDE_LANES: usize = STREAMS;

/// Visits to a warm state in a chunk before it is laid out wide (its guide
/// costs some hundreds of writes; until then its lanes take the cold path,
/// a flat look-up).
const WIDE_WARM_VISITS: u32 = 64;

/// Lanes a vector steps (eight 64-bit slots to an AVX-512 register).
const VECTOR: usize = 8;

/// Set in a slot's low half where its state is over (its id in the high).
const SLOT_OVER: u64 = 1 << 31;

/// Set in a guide entry whose words a threshold splits: the high half is
/// where in the thresholds to start comparing.
const SPLIT: u64 = 1 << 30;

/// Set beside [`SPLIT`] where more than one threshold falls among the
/// entry's words (the vector compares with one, these go scalar).
const SPLIT_MORE: u64 = 1 << 29;

/// A slot's low half: the bits of a word its guide table reads (0: cold).
const SLOT_BITS: u64 = 63;

/// Top bits a guide table reads: enough that a threshold splits few
/// entries (one in 32 per outcome), at least 8, and at most 10, so that
/// laying out a state (once per chunk) stays cheap beside its draws.
fn guide_bits(outcomes: usize) -> u32 {
    (outcomes.next_power_of_two().trailing_zeros() + 5).clamp(8, 10)
}

/// One outcome of a laid-out state's law: words below `below` (and at or
/// above the outcome before's) draw it; the last outcome's is `u64::MAX`
/// and takes every word left.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(super) struct Threshold {
    below: u64,
    /// Its slot (a cold one until its state is laid out).
    slot: u64,
}

/// Where a laid-out state's guide table and thresholds lie.
#[derive(Clone, Copy, Debug)]
pub(super) struct Guide {
    at: usize,
    bits: u32,
    thresholds: usize,
    outcomes: usize,
}

/// The lanes' trials in flight (their slots, steps taken and streams) and
/// the run they belong to: its trials, those begun, its start and the log
/// of the endings not yet counted.
struct Lanes {
    slots: [u64; WIDE_LANES],
    taken: [u64; WIDE_LANES],
    streams: LaneStreams,
    trials: u64,
    started: u64,
    start: u32,
    /// Endings (where, in the high half; steps, in the low), `logged` of
    /// them; room past a block for a step's endings.
    log: Vec<u64>,
    logged: usize,
}

/// The outcome `word` draws among thresholds from `i` on.
#[inline]
fn past_thresholds(thresholds: &[Threshold], mut i: usize, word: u64) -> u64 {
    while thresholds[i].below != u64::MAX && word >= thresholds[i].below {
        i += 1;
    }
    thresholds[i].slot
}

/// A step of one lane from `slot` with `word`, where its state is laid out:
/// the guide entry the word's top bits pick, or where a threshold splits
/// it, the word compared with the thresholds.
#[inline(always)]
fn draw(guide: &[u64], thresholds: &[Threshold], slot: u64, word: u64) -> u64 {
    let entry = guide[(slot >> 32) as usize + (word >> (64 - (slot & SLOT_BITS))) as usize];
    if entry & SPLIT == 0 {
        entry
    } else {
        past_thresholds(thresholds, (entry >> 32) as usize, word)
    }
}

impl<K: Clone + Eq + Hash> Walk<K> {
    /// The slot of the state `marked` (an id, [`OVER`] where over).
    fn slot(&self, marked: u32) -> u64 {
        let id = u64::from(marked & !OVER);
        if marked & OVER != 0 {
            return (id << 32) | SLOT_OVER;
        }
        match self.wide_at[id as usize] {
            0 => id << 32,
            at => at,
        }
    }

    /// Lays out state `i`'s law for the wide lanes from its flat layout,
    /// once it has one: each outcome's mass summed over the alias columns
    /// in whole units (a column is `2^64`, its threshold the own's share),
    /// so the thresholds give the alias table's law to the unit of the
    /// word. Outcomes that lead to states not laid out yet are pointed at
    /// them once they are.
    fn lay_out_wide(&mut self, i: usize) {
        let flat = self.flat_at[i];
        if self.wide_at[i] != 0 {
            return;
        }
        let columns: Vec<(u64, u32, u32)> = if flat & FIXED != 0 {
            vec![(u64::MAX, flat as u32, flat as u32)]
        } else if flat != 0 {
            let at = (flat >> 32) as usize;
            self.flat[at..at + flat as u32 as usize]
                .iter()
                .map(|c| (c.keep, c.own, c.alias))
                .collect()
        } else {
            return;
        };
        let mut mass: std::collections::BTreeMap<u32, u128> = Default::default();
        for &(keep, own, alias) in &columns {
            *mass.entry(own).or_default() += u128::from(keep);
            *mass.entry(alias).or_default() += (1u128 << 64) - u128::from(keep);
        }
        let n = columns.len() as u128;
        let outcomes: Vec<(u32, u128)> = mass.into_iter().filter(|(_, m)| *m > 0).collect();
        let guide = Guide {
            at: self.wide.len(),
            bits: guide_bits(outcomes.len()),
            thresholds: self.wide_thresholds.len(),
            outcomes: outcomes.len(),
        };
        // its own slot first: a step that stays put leads to it
        self.wide_at[i] = ((guide.at as u64) << 32) | u64::from(guide.bits);
        let mut sum = 0u128;
        let index = self.wide_guides.len() as u32;
        for (k, (marked, m)) in outcomes.iter().enumerate() {
            sum += m;
            // the share of the 2^64 words, rounded down; the last takes
            // the rest
            let below = if k + 1 == outcomes.len() {
                u64::MAX
            } else {
                // (sum / (n 2^64)) of the 2^64 words; below u64::MAX,
                // which marks the last alone (an outcome of mass under a
                // word's unit at the top would round to it)
                (sum / n).min(u128::from(u64::MAX - 1)) as u64
            };
            let slot = self.slot(*marked);
            if slot & (SLOT_BITS | SLOT_OVER) == 0 {
                // a state not laid out yet: its entries here are pointed
                // at it once it is
                let id = (marked & !OVER) as usize;
                if self.wide_waiting.len() <= id {
                    self.wide_waiting.resize(id + 1, Vec::new());
                }
                self.wide_waiting[id].push((index, self.wide_thresholds.len() as u32));
            }
            self.wide_thresholds.push(Threshold { below, slot });
        }
        self.wide.resize(guide.at + (1 << guide.bits), 0);
        self.write_guide(guide);
        self.wide_guides.push(guide);
        // the outcomes that led here while it was cold, and the entries
        // all of whose words draw them (a lane that met the old slot took
        // the cold path, which draws the same)
        let now = self.wide_at[i];
        let waiting = self.wide_waiting.get_mut(i).map(std::mem::take);
        for (g, t) in waiting.into_iter().flatten() {
            let guide = self.wide_guides[g as usize];
            let t = t as usize;
            self.wide_thresholds[t].slot = now;
            let shift = 64 - guide.bits;
            let low = match t {
                t if t == guide.thresholds => 0,
                t => self.wide_thresholds[t - 1].below,
            };
            let high = self.wide_thresholds[t].below;
            let last = match high {
                u64::MAX => u64::MAX,
                // an outcome with no words (rounded away) has no entries
                _ => match high.checked_sub(1) {
                    Some(last) if last >= low => last,
                    _ => continue,
                },
            };
            for k in low >> shift..=last >> shift {
                let entry = &mut self.wide[guide.at + k as usize];
                if *entry & SPLIT == 0 {
                    *entry = now;
                }
            }
        }
    }

    /// Writes `guide`'s table from its thresholds: each entry the slot of
    /// the one outcome all its words draw, else [`SPLIT`] and the first
    /// outcome its words can draw.
    fn write_guide(&mut self, guide: Guide) {
        let thresholds = &self.wide_thresholds[guide.thresholds..guide.thresholds + guide.outcomes];
        let shift = 64 - guide.bits;
        let mut first = 0;
        for k in 0..1u64 << guide.bits {
            let (low, high) = (k << shift, (k << shift) | ((1u64 << shift) - 1));
            while thresholds[first].below != u64::MAX && low >= thresholds[first].below {
                first += 1;
            }
            let ends_past = |t: &Threshold| t.below == u64::MAX || high < t.below;
            self.wide[guide.at + k as usize] = if ends_past(&thresholds[first]) {
                thresholds[first].slot
            } else {
                // the next outcome holds the rest of the entry's words, or
                // another threshold falls among them
                let more = if ends_past(&thresholds[first + 1]) {
                    0
                } else {
                    SPLIT_MORE
                };
                (((guide.thresholds + first) as u64) << 32) | SPLIT | more
            };
        }
    }

    /// A lane's step from a slot with no columns: drawn with its word where
    /// the state has been laid out since, else `step` from its id on the
    /// chunk's roller (real dice while cold).
    #[inline(never)]
    fn wide_cold(
        &mut self,
        slot: u64,
        word: u64,
        roller: &mut BatchedRoller,
        step: &mut impl FnMut(&mut Self, u32, &mut BatchedRoller) -> u32,
    ) -> u64 {
        let id = (slot >> 32) as usize;
        match self.wide_at[id] {
            0 => {
                let marked = step(self, id as u32, roller);
                // warm by now: laid out wide once met often enough to
                // repay its guide
                if self.flat_at[id] != 0 {
                    self.visits[id] += 1;
                    if self.visits[id] >= WIDE_WARM_VISITS {
                        self.lay_out_wide(id);
                    }
                }
                self.slot(marked)
            }
            at => draw(&self.wide, &self.wide_thresholds, at, word),
        }
    }

    /// The lanes of a vector the gather left unfinished, in lane order:
    /// those marked in `cold` by [`Walk::wide_cold`], those in `split`
    /// (their guide entry in `out`) by comparing the word with the
    /// thresholds.
    #[cold]
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn wide_odd_lanes(
        &mut self,
        cold: u8,
        split: u8,
        slots: &[u64; VECTOR],
        words: &[u64; VECTOR],
        out: &mut [u64; VECTOR],
        roller: &mut BatchedRoller,
        step: &mut impl FnMut(&mut Self, u32, &mut BatchedRoller) -> u32,
    ) {
        for j in 0..VECTOR {
            if split >> j & 1 != 0 {
                out[j] = past_thresholds(&self.wide_thresholds, (out[j] >> 32) as usize, words[j]);
            }
        }
        for j in 0..VECTOR {
            if cold >> j & 1 != 0 {
                out[j] = self.wide_cold(slots[j], words[j], roller, step);
            }
        }
    }

    /// [`Walk::run_until_over`] without first steps, [`WIDE_LANES`] lanes
    /// at a time: counts where each trial ended into the walk's ends and its
    /// steps into `lengths`.
    pub(super) fn run_wide(
        &mut self,
        start: u32,
        trials: u64,
        roller: &mut BatchedRoller,
        mut step: impl FnMut(&mut Self, u32, &mut BatchedRoller) -> u32,
        lengths: &mut Counts,
        vector: bool,
    ) {
        let mut ends = vec![0u64; COLUMNS * self.keys.len()];
        let mut steps = vec![0u64; COLUMNS * 16];
        let mut in_flight = Vec::new();
        // trials begun: every lane's first, where there are enough
        let mut started = 0;
        if trials >= WIDE_LANES as u64 {
            let mut lanes = Lanes {
                slots: [self.slot(start); WIDE_LANES],
                taken: [0; WIDE_LANES],
                streams: LaneStreams::new(roller),
                trials,
                started: WIDE_LANES as u64,
                start,
                log: vec![0u64; END_LOG + 2 * WIDE_LANES],
                logged: 0,
            };
            while lanes.started + WIDE_LANES as u64 <= trials {
                lanes.logged = 0;
                let runs = if vector {
                    self.wide_vector(&mut lanes, roller, &mut step)
                } else {
                    self.wide_scalar(&mut lanes, roller, &mut step)
                };
                roller.count_words(runs * WIDE_LANES as u64);
                ends.resize(ends.len().max(COLUMNS * self.keys.len()), 0);
                count_ending_log(&lanes.log[..lanes.logged], &mut ends, &mut steps);
            }
            // the trials in flight, by state id
            for (slot, taken) in lanes.slots.into_iter().zip(lanes.taken) {
                let id = match slot & SLOT_BITS {
                    0 => (slot >> 32) as u32,
                    _ => self
                        .wide_at
                        .iter()
                        .position(|&a| a == slot)
                        .expect("laid out") as u32,
                };
                in_flight.push((id, taken as usize));
            }
            started = lanes.started;
        }
        // those in flight, each to its end, then the rest one by one
        let rest = (started..trials).map(|_| (start, 0));
        self.finish(
            in_flight.into_iter().chain(rest),
            |walk, id, _, r| step(walk, id, r),
            roller,
            (&ends, &steps),
            lengths,
        );
    }

    /// Steps all lanes until the log holds a block or too few trials are
    /// left to start a lane's worth more; returns the steps run. The definition of
    /// the wide walk: eight lanes at a time, each draws its word, the
    /// laid-out ones step, then the cold ones in order (the start's slot
    /// read again after them), then each lane that ended logs its trial
    /// and starts the next.
    fn wide_scalar(
        &mut self,
        lanes: &mut Lanes,
        roller: &mut BatchedRoller,
        step: &mut impl FnMut(&mut Self, u32, &mut BatchedRoller) -> u32,
    ) -> u64 {
        let (start, trials) = (lanes.start, lanes.trials);
        let mut start_slot = self.slot(start);
        let mut runs = 0;
        while lanes.started + WIDE_LANES as u64 <= trials && lanes.logged < END_LOG {
            runs += 1;
            for v in 0..WIDE_LANES / VECTOR {
                let lanes_here = v * VECTOR..(v + 1) * VECTOR;
                let words: [u64; VECTOR] = lanes.streams.next_words(v * VECTOR);
                let mut to = [0u64; VECTOR];
                let mut cold = false;
                for (j, lane) in lanes_here.clone().enumerate() {
                    let slot = lanes.slots[lane];
                    if slot & SLOT_BITS != 0 {
                        to[j] = draw(&self.wide, &self.wide_thresholds, slot, words[j]);
                    } else {
                        cold = true;
                    }
                }
                if cold {
                    for (j, lane) in lanes_here.clone().enumerate() {
                        let slot = lanes.slots[lane];
                        if slot & SLOT_BITS == 0 {
                            to[j] = self.wide_cold(slot, words[j], roller, step);
                        }
                    }
                    start_slot = self.slot(start);
                }
                // by masks, not branches: whether a trial ends is as
                // likely as its dice make it (the log's place is written
                // either way and moves on only where the trial ended)
                for (j, lane) in lanes_here.enumerate() {
                    let taken = lanes.taken[lane] + 1;
                    let done = u64::from(to[j] & SLOT_OVER != 0);
                    let mask = 0u64.wrapping_sub(done);
                    lanes.log[lanes.logged] = (to[j] & !0xffff_ffff) | taken;
                    lanes.logged += done as usize;
                    lanes.started += done;
                    lanes.slots[lane] = (start_slot & mask) | (to[j] & !mask);
                    lanes.taken[lane] = taken & !mask;
                }
            }
        }
        runs
    }

    /// [`Walk::wide_scalar`] eight lanes a vector where the machine has
    /// AVX-512, else the scalar twin itself.
    fn wide_vector(
        &mut self,
        lanes: &mut Lanes,
        roller: &mut BatchedRoller,
        step: &mut impl FnMut(&mut Self, u32, &mut BatchedRoller) -> u32,
    ) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if lanes_by_vector() {
            // SAFETY: the machine has AVX-512F, checked by lanes_by_vector
            return unsafe { self.wide_avx512(lanes, roller, step) };
        }
        self.wide_scalar(lanes, roller, step)
    }

    /// [`Walk::wide_scalar`] with AVX-512: each vector of eight lanes is
    /// one xoshiro256++ step of eight streams, the word's top bits shifted
    /// down by each lane's own count, one masked gather of the guide
    /// entries (lanes with no bits masked off, to the cold path), three
    /// more where one threshold splits an entry, and a compress of the
    /// endings into the log.
    ///
    /// # Safety
    /// The machine must have AVX-512F.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    unsafe fn wide_avx512(
        &mut self,
        lanes: &mut Lanes,
        roller: &mut BatchedRoller,
        step: &mut impl FnMut(&mut Self, u32, &mut BatchedRoller) -> u32,
    ) -> u64 {
        use std::arch::x86_64::*;
        const VECTORS: usize = WIDE_LANES / VECTOR;
        // SAFETY (for every load and store below): each reads or writes
        // eight u64 of an array of at least eight, at an offset that
        // leaves eight; the guide's gather reads only lanes whose slot has
        // bits, whose index is within `self.wide` (the guide's offset plus
        // the word's top bits, below its 2^bits entries)
        macro_rules! load {
            ($a:expr, $at:expr) => {
                unsafe { _mm512_loadu_si512($a[$at..$at + VECTOR].as_ptr().cast()) }
            };
        }
        macro_rules! store {
            ($a:expr, $at:expr, $v:expr) => {
                unsafe { _mm512_storeu_si512($a[$at..$at + VECTOR].as_mut_ptr().cast(), $v) }
            };
        }
        let zero = _mm512_setzero_si512();
        let one = _mm512_set1_epi64(1);
        let sixty_four = _mm512_set1_epi64(64);
        let bits_mask = _mm512_set1_epi64(SLOT_BITS as i64);
        let split_bit = _mm512_set1_epi64(SPLIT as i64);
        let split_more_bit = _mm512_set1_epi64(SPLIT_MORE as i64);
        let over = _mm512_set1_epi64(SLOT_OVER as i64);
        let high = _mm512_set1_epi64(!0xffff_ffffu64 as i64);
        let (start, trials) = (lanes.start, lanes.trials);
        let mut start_slot = _mm512_set1_epi64(self.slot(start) as i64);
        let mut slots = [zero; VECTORS];
        let mut taken = [zero; VECTORS];
        for v in 0..VECTORS {
            slots[v] = load!(lanes.slots, v * VECTOR);
            taken[v] = load!(lanes.taken, v * VECTOR);
        }
        let mut g = [[zero; 4]; VECTORS];
        for (v, g) in g.iter_mut().enumerate() {
            for (word, stream_word) in g.iter_mut().zip(&lanes.streams.s) {
                *word = load!(stream_word, v * VECTOR);
            }
        }
        let (mut at_log, mut begun) = (lanes.logged, lanes.started);
        // one step of the eight lanes of vector `$v` (written out for each
        // vector, so each keeps its lanes and streams in registers)
        macro_rules! vector_step {
            ($v:expr) => {{
                // xoshiro256++, eight streams
                let w = crate::dice::xoshiro_step_avx512(&mut g[$v]);
                // the draw: the guide entry of the word's top bits
                let slot = slots[$v];
                let bits = _mm512_and_si512(slot, bits_mask);
                let cold = _mm512_cmpeq_epi64_mask(bits, zero);
                let top = _mm512_srlv_epi64(w, _mm512_sub_epi64(sixty_four, bits));
                let at = _mm512_add_epi64(_mm512_srli_epi64::<32>(slot), top);
                let base = self.wide.as_ptr().cast::<i64>();
                // SAFETY: see above; lanes masked off read nothing
                let mut to = unsafe { _mm512_mask_i64gather_epi64::<8>(zero, !cold, at, base) };
                let split = _mm512_mask_test_epi64_mask(!cold, to, split_bit);
                // one threshold among the entry's words: the word against
                // it, its outcome's slot or the next's (thresholds are two
                // words each: below, slot)
                let more = _mm512_mask_test_epi64_mask(split, to, split_more_bit);
                let single = split & !more;
                if single != 0 {
                    let t = _mm512_slli_epi64::<1>(_mm512_srli_epi64::<32>(to));
                    let base = self.wide_thresholds.as_ptr().cast::<i64>();
                    // SAFETY: a split entry's threshold and the next are
                    // within `self.wide_thresholds`; lanes masked off read
                    // nothing
                    let (below, own, next) = unsafe {
                        (
                            _mm512_mask_i64gather_epi64::<8>(zero, single, t, base),
                            _mm512_mask_i64gather_epi64::<8>(zero, single, t, base.wrapping_add(1)),
                            _mm512_mask_i64gather_epi64::<8>(zero, single, t, base.wrapping_add(3)),
                        )
                    };
                    let under = _mm512_cmplt_epu64_mask(w, below);
                    to = _mm512_mask_mov_epi64(
                        to,
                        single,
                        _mm512_mask_blend_epi64(under, next, own),
                    );
                }
                let split = split & more;
                if cold | split != 0 {
                    let (mut s, mut ws, mut out) = ([0u64; VECTOR], [0u64; VECTOR], [0u64; VECTOR]);
                    store!(s, 0, slot);
                    store!(ws, 0, w);
                    store!(out, 0, to);
                    self.wide_odd_lanes(cold, split, &s, &ws, &mut out, roller, step);
                    to = load!(out, 0);
                    if cold != 0 {
                        start_slot = _mm512_set1_epi64(self.slot(start) as i64);
                    }
                }
                let done = _mm512_test_epi64_mask(to, over);
                let steps = _mm512_add_epi64(taken[$v], one);
                let entry = _mm512_or_si512(_mm512_and_si512(to, high), steps);
                store!(lanes.log, at_log, _mm512_maskz_compress_epi64(done, entry));
                let ended = done.count_ones() as usize;
                at_log += ended;
                begun += ended as u64;
                slots[$v] = _mm512_mask_blend_epi64(done, to, start_slot);
                taken[$v] = _mm512_maskz_mov_epi64(!done, steps);
            }};
        }
        const _: () = assert!(VECTORS == 4);
        let mut runs = 0;
        while begun + WIDE_LANES as u64 <= trials && at_log < END_LOG {
            runs += 1;
            vector_step!(0);
            vector_step!(1);
            vector_step!(2);
            vector_step!(3);
        }
        (lanes.logged, lanes.started) = (at_log, begun);
        for v in 0..VECTORS {
            store!(lanes.slots, v * VECTOR, slots[v]);
            store!(lanes.taken, v * VECTOR, taken[v]);
            for (stream_word, word) in lanes.streams.s.iter_mut().zip(g[v]) {
                store!(stream_word, v * VECTOR, word);
            }
        }
        runs
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::walk::{Law, WARM_VISITS};
    use std::collections::BTreeMap;
    use std::sync::Arc;

    /// A chain with what the wide lanes must get right: a state that
    /// stays put, outcomes of one in a billion (thresholds that split a
    /// guide entry, two to an entry), a state with no law (always cold),
    /// one that always leads to the one state, states met late (laid out
    /// long after the start, so columns point at stale slots), and trials
    /// of many lengths. From 0..=9 a step adds 0, 1 or 2 or jumps to a
    /// far state; over at 10 or more. The thresholds at 0.3 (alone in its
    /// entry: the vector compares) and at 1 - 2e-9 and 1 - 1e-9 (two in
    /// one entry: scalar).
    fn law(s: &u32) -> Option<Law<u32>> {
        match *s {
            5 => None,
            7 => Some(Arc::new(vec![(9, 1.0)])),
            s if s < 10 => Some(Arc::new(vec![
                (s, 0.3),
                (s + 1, 0.45),
                (s + 2, 0.25 - 2e-9),
                (s + 20, 1e-9),
                (s + 30, 1e-9),
            ])),
            _ => unreachable!("over"),
        }
    }

    fn play(s: &u32, r: &mut BatchedRoller) -> u32 {
        use crate::dice::Roller;
        match *s {
            7 => 9,
            s => {
                let d = r.roll(4);
                s + [0, 0, 1, 2][d as usize - 1]
            }
        }
    }

    /// Where a run's trials ended, after how many steps, the words it
    /// drew and the roller's next word.
    type Run = (BTreeMap<u32, u64>, Vec<(usize, u64)>, u64, u64);

    fn run(trials: u64, vector: bool) -> Run {
        let mut w: Walk<u32> = Walk::default();
        let mut roller = BatchedRoller::new(9, &[4]);
        let start = w.id(&0);
        let mut lengths = Counts::default();
        let step = |walk: &mut Walk<u32>, id: u32, r: &mut BatchedRoller| {
            walk.step_then(id, r, law, play, |s| *s, |s| *s >= 10)
        };
        w.run_wide(start, trials, &mut roller, step, &mut lengths, vector);
        let ends = w.ends().map(|(k, n)| (*k, n)).collect();
        (
            ends,
            lengths.iter().collect(),
            roller.words(),
            roller.next_word(),
        )
    }

    /// The AVX-512 kernel and the scalar twin are one walk: the same ends,
    /// lengths and words from the same chunk, and the roller left where
    /// the other leaves it. Where the machine has no AVX-512 both runs
    /// take the twin, and this says so.
    #[test]
    fn the_vector_walk_and_its_scalar_twin_end_alike() {
        if !lanes_by_vector() {
            eprintln!("no AVX-512 here: both runs are the scalar twin");
        }
        for trials in [0, 1, WIDE_LANES as u64 - 1, WIDE_LANES as u64, 100_003] {
            let (vector, scalar) = (run(trials, true), run(trials, false));
            assert_eq!(vector, scalar, "{trials} trials");
            assert_eq!(vector.0.values().sum::<u64>(), trials);
            assert_eq!(vector.1.iter().map(|(_, n)| n).sum::<u64>(), trials);
        }
    }

    /// Every guide entry draws what comparing the word with every
    /// threshold from the first draws, at the entry's first and last word
    /// (where a threshold falls between them, the compare decides), and
    /// the thresholds' widths are the alias table's law to the unit.
    #[test]
    fn a_warm_states_guide_draws_what_its_thresholds_say() {
        let (_, lengths, _, _) = run(50_000, false);
        assert!(lengths.iter().any(|&(n, _)| n > 20), "long walks met");
        let mut w: Walk<u32> = Walk::default();
        let mut roller = BatchedRoller::new(9, &[4]);
        let start = w.id(&0);
        let step = |walk: &mut Walk<u32>, id: u32, r: &mut BatchedRoller| {
            walk.step_then(id, r, law, play, |s| *s, |s| *s >= 10)
        };
        w.run_wide(
            start,
            50_000,
            &mut roller,
            step,
            &mut Counts::default(),
            false,
        );
        assert!(w.wide_guides.len() >= 8, "the warm states are laid out");
        let (mut splits, mut more) = (0, 0);
        for g in &w.wide_guides {
            let slot = ((g.at as u64) << 32) | u64::from(g.bits);
            let shift = 64 - g.bits;
            for k in 0..1u64 << g.bits {
                let entry = w.wide[g.at + k as usize];
                splits += usize::from(entry & SPLIT != 0 && entry & SPLIT_MORE == 0);
                more += usize::from(entry & SPLIT_MORE != 0);
                for word in [k << shift, (k << shift) | ((1 << shift) - 1)] {
                    assert_eq!(
                        draw(&w.wide, &w.wide_thresholds, slot, word),
                        past_thresholds(&w.wide_thresholds, g.thresholds, word),
                    );
                }
            }
            // widths: 0.3, 0.45, 1/4 - 2e-9, 1e-9, 1e-9 of 2^64, where the
            // state has five outcomes
            let t = &w.wide_thresholds[g.thresholds..g.thresholds + g.outcomes];
            if g.outcomes == 5 {
                let mut widths: Vec<f64> = (0..5)
                    .map(|i| {
                        let low = if i == 0 { 0 } else { t[i - 1].below };
                        (t[i].below - low) as f64 / 2f64.powi(64)
                    })
                    .collect();
                // in the order of the states' ids, so compared sorted
                widths.sort_by(f64::total_cmp);
                for (got, want) in widths.iter().zip([1e-9, 1e-9, 0.25 - 2e-9, 0.3, 0.45]) {
                    assert!((got - want).abs() < 1e-15, "{widths:?}");
                }
            }
        }
        assert!(splits > 0, "some entries are split by one threshold");
        assert!(more > 0, "some by two");
        // the state with no law never laid out; the fixed one laid out
        assert_eq!(w.wide_at[w.ids[&5] as usize], 0);
        assert_ne!(w.wide_at[w.ids[&7] as usize], 0);
    }

    /// An outcome whose mass is under one word's unit (4e-20 here) gets
    /// the top word or none, never the entry of the outcome before it:
    /// once its state is laid out, the top guide entry of the state that
    /// leads there still draws that state's big outcome (the threshold
    /// before it had rounded to `u64::MAX`, which marks the last, and the
    /// entry was pointed at the tiny outcome).
    #[test]
    fn an_outcome_under_a_words_unit_keeps_off_the_others_entries() {
        let law = |s: &u32| {
            Some(Arc::new(match s {
                0 => vec![(0, 1.0), (1, 4e-20)],
                _ => vec![(*s, 1.0)],
            }))
        };
        let mut w: Walk<u32> = Walk::default();
        let mut roller = BatchedRoller::new(1, &[0]);
        let (zero, one) = (w.id(&0), w.id(&1));
        for id in [zero, one] {
            for _ in 0..WARM_VISITS {
                w.step_then(id, &mut roller, law, |s, _| *s, |s| *s, |_| false);
            }
        }
        w.lay_out_wide(zero as usize);
        assert_ne!(w.flat_at[one as usize], 0, "warm");
        w.lay_out_wide(one as usize);
        let g = w.wide_guides[0];
        let t = &w.wide_thresholds[g.thresholds..g.thresholds + g.outcomes];
        assert_eq!(g.outcomes, 2, "the tiny outcome has a word's unit");
        assert!(t[0].below < u64::MAX, "only the last threshold is the top");
        let slot = ((g.at as u64) << 32) | u64::from(g.bits);
        let top_entry_low = u64::MAX << (64 - g.bits);
        let stays = w.wide_at[zero as usize];
        assert_eq!(
            draw(&w.wide, &w.wide_thresholds, slot, top_entry_low),
            stays
        );
        assert_eq!(draw(&w.wide, &w.wide_thresholds, slot, 0), stays);
        assert_eq!(
            draw(&w.wide, &w.wide_thresholds, slot, u64::MAX),
            w.wide_at[one as usize]
        );
    }
}
