//! Fast samplers of ramming and boarding (issue 22), written beside the
//! engine's with its public pieces. The reference sampler and the exact
//! evaluator stay the engine's ([`StepModel`], [`RepeatModel`]); only
//! `run_chunk` changes.
//!
//! - Ramming rolls the rule's own dice: the Leadership test is drawn from a
//!   face table of its dice ([`FaceTable`]), and a ram that passes rolls
//!   both pools at once, sixteen D6 a word read four dice a look-up (as
//!   [`Roller::sum_d6_by`](crate::dice::Roller::sum_d6_by) reads them),
//!   each look-up adding what its four dice score to the ending's index.

use super::mechanics::{RamRule, RamState, beats};
use crate::dice::{BatchedRoller, GivenFaces, Tally, Times, split_word};
use crate::engine::faces::FaceTable;
use crate::engine::{Mechanic, MetricDef, Model, NoExact, Sampler, StepModel};

/// The ram's sampler: the test a draw from its face table, both pools of a
/// ram that passed read from one word (up to sixteen dice) four dice a
/// look-up.
pub const RAM_SAMPLER: Sampler =
    Sampler::Custom("test face table, then both pools four D6 a look-up");

/// Four D6 as one digit.
const FOUR: u32 = 1296;

/// Two digits of four D6 from one word, as `sum_d6_by` reads them.
const SIX_POW_8: u64 = 1_679_616;

/// The faces of four D6 a digit below [`FOUR`] stands for, most significant
/// first (the order `sum_d6_by` reads them in; any fixed order would do).
fn four_faces(i: u32) -> [u32; 4] {
    [i / 216 + 1, i / 36 % 6 + 1, i / 6 % 6 + 1, i % 6 + 1]
}

/// A slot's look-up: what the four dice of each digit add to the index of
/// the ram's ending. Padded to 2048 entries, so a digit (below 1296)
/// indexes in bounds without a check.
type Slot = [u16; 2048];

/// The tables of a ram's fast sampler.
struct RamTables {
    /// The Leadership test's dice, laid out once: passed or not.
    test: FaceTable<bool>,
    /// Four slots a word: the rammer's pool first, four dice a slot, then
    /// the target's return dice; slots past both add nothing.
    slots: Vec<Slot>,
    /// Points dealt can be `0..stride`: an ending's index is `dealt +
    /// stride * taken`.
    stride: usize,
    /// Endings of a ram that passed: `stride * (return dice + 1)`.
    cells: usize,
}

impl RamTables {
    fn new(rule: &RamRule) -> Option<Self> {
        let test = FaceTable::build(|d| {
            let mut s = rule.start();
            rule.step(0, d, &mut s);
            s.passed()
        })?;
        let ram = rule.ram();
        let stride = ram.rammer_starting as usize + 1;
        let cells = stride * (ram.return_dice as usize + 1);
        let mut slots = Vec::new();
        // the rammer's dice against the target's armour, then the target's
        // return dice against the rammer's front armour: each die scores
        // as the rule's own `beats` scores it
        for (dice, armour, weight) in [
            (ram.rammer_starting, ram.target_armour, 1),
            (ram.return_dice, ram.rammer_front_armour, stride),
        ] {
            let one =
                [1, 2, 3, 4, 5, 6].map(|f| usize::from(beats(&mut GivenFaces::new(&[f]), armour)));
            let mut left = dice;
            while left > 0 {
                let n = left.min(4) as usize;
                let mut slot = [0u16; 2048];
                for (i, e) in slot.iter_mut().enumerate().take(FOUR as usize) {
                    let scored: usize = four_faces(i as u32)[..n]
                        .iter()
                        .map(|&f| one[f as usize - 1])
                        .sum();
                    *e = u16::try_from(scored * weight).ok()?;
                }
                slots.push(slot);
                left -= n as u32;
            }
        }
        while slots.len() % 4 != 0 {
            slots.push([0; 2048]);
        }
        Some(RamTables {
            test,
            slots,
            stride,
            cells,
        })
    }
}

/// The ram: the engine's step model for the exact values and the reference
/// sampler, [`RAM_SAMPLER`] for `run_chunk`.
pub struct RamModel {
    steps: StepModel<RamRule>,
    /// Laid out the first time the model samples (an exact-only use never
    /// pays for them).
    tables: std::sync::OnceLock<Option<RamTables>>,
}

impl RamModel {
    /// The model of `rule`.
    pub fn new(rule: RamRule) -> Self {
        RamModel {
            steps: StepModel::new(rule),
            tables: std::sync::OnceLock::new(),
        }
    }

    fn tables(&self) -> Option<&RamTables> {
        self.tables
            .get_or_init(|| RamTables::new(self.steps.mechanic()))
            .as_ref()
    }

    /// The tables' sampler: the chunk's tests drawn from the test's face
    /// table, then, for each ram that passed, both pools from one word
    /// (more where they pass sixteen dice), each ending counted in one of
    /// four histograms side by side and recorded once.
    fn run_tables(
        &self,
        t: &RamTables,
        roller: &mut BatchedRoller,
        trials: u64,
        tally: &mut Tally,
    ) {
        let rule = self.steps.mechanic();
        let passed_of = |d: &mut crate::engine::faces::Overrun<'_>| {
            let mut s = rule.start();
            rule.step(0, d, &mut s);
            s.passed()
        };
        let mut past_passes = 0u64;
        let tests = t
            .test
            .count(roller, trials, passed_of, |p| past_passes += u64::from(p));
        let passes: u64 = t
            .test
            .ends()
            .iter()
            .zip(&tests)
            .filter(|(p, _)| **p)
            .map(|(_, n)| n)
            .sum::<u64>()
            + past_passes;
        let mut counts = vec![0u64; 4 * t.cells];
        let mut lane = 0usize;
        for _ in 0..passes {
            let mut at = 0usize;
            for four in t.slots.chunks_exact(4) {
                let [a, b] = split_word::<2>(roller.next_word(), SIX_POW_8);
                at += usize::from(four[0][(a / FOUR) as usize & 2047])
                    + usize::from(four[1][(a % FOUR) as usize])
                    + usize::from(four[2][(b / FOUR) as usize & 2047])
                    + usize::from(four[3][(b % FOUR) as usize]);
            }
            counts[4 * at + lane] += 1;
            lane = (lane + 1) & 3;
        }
        let mut record = |s: RamState, count: u64| {
            if count > 0 {
                rule.record(&s, &mut Times { tally, count });
            }
        };
        record(RamState::new(false, 0, 0), trials - passes);
        for (cell, c) in counts.chunks_exact(4).enumerate() {
            let (dealt, taken) = (cell % t.stride, cell / t.stride);
            record(
                RamState::new(true, dealt as u32, taken as u32),
                c.iter().sum(),
            );
        }
        tally.add_trials(trials);
    }
}

impl Model for RamModel {
    fn metrics(&self) -> &[MetricDef] {
        self.steps.metrics()
    }

    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        match self.tables() {
            Some(t) => self.run_tables(t, roller, trials, tally),
            None => self.steps.run_chunk(roller, trials, tally),
        }
    }

    fn sampler(&self) -> Sampler {
        match self.tables() {
            Some(_) => RAM_SAMPLER,
            None => self.steps.sampler(),
        }
    }

    fn exact(&self) -> Option<Vec<f64>> {
        self.steps.exact()
    }

    fn exact_or_why(&self) -> Result<Vec<f64>, NoExact> {
        self.steps.exact_or_why()
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        self.steps.sample_one(roller, values)
    }

    fn run_reference(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        self.steps.run_reference(roller, trials, tally)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::binomial_pmf;
    use crate::dice::stats::binomial_p_value;
    use crate::systems::bfg::mechanics::Ram;

    /// The trials of each statistical check, and the false-alarm rate of a
    /// whole test, shared by its checks (Bonferroni).
    const TRIALS: u64 = 400_000;
    const ALPHA: f64 = 1e-6;

    /// `TRIALS` trials of the model's `run_chunk`, chunk by chunk as a run
    /// keys its streams, at a fixed seed.
    fn run(model: &dyn Model) -> Tally {
        let mut tally = Tally::new(model.metrics().len());
        let chunk = 1 << 16;
        for c in 0..TRIALS.div_ceil(chunk) {
            let n = chunk.min(TRIALS - c * chunk);
            model.run_chunk(&mut BatchedRoller::new(7, &[c]), n, &mut tally);
        }
        tally
    }

    /// Every `(metric, probability)` held to its count by an exact
    /// binomial test at `ALPHA` over all of them.
    fn holds(model: &dyn Model, tally: &Tally, want: &[(String, f64)]) {
        assert_eq!(tally.trials(), TRIALS);
        for (name, p) in want {
            let at = model
                .metrics()
                .iter()
                .position(|m| m.name == *name)
                .unwrap_or_else(|| panic!("metric {name}"));
            let k = tally.sum(at);
            let pv = binomial_p_value(k, TRIALS, *p);
            assert!(
                pv > ALPHA / want.len() as f64,
                "{name}: {k} of {TRIALS} against P = {p}: p-value {pv}"
            );
        }
    }

    /// P(k points) of a ram that passes its test with probability `pass`,
    /// from `n` dice scoring with probability `q` each; 0 points when it
    /// fails.
    fn points(pass: f64, n: u32, q: f64) -> impl Fn(u32) -> f64 {
        move |k| {
            pass * binomial_pmf(u64::from(n), u64::from(k), q)
                + if k == 0 { 1.0 - pass } else { 0.0 }
        }
    }

    /// The Agrippa (starting damage 8, front armour 6, Leadership 8) rams
    /// the Unclean (armour 5, starting damage 8) side on: 2D6 under 8
    /// passes, 26/36 (the 10 of 36 totals 9-12 fail); then 8 dice scoring
    /// on 5 or 6 (1/3 each) and 4 return dice scoring on a 6 (1/6 each).
    /// Every count of points, both ways, held to that law: the fast
    /// sampler against the rule by hand, not against the exact evaluator.
    #[test]
    fn the_ram_sampler_follows_the_law_by_hand() {
        let ram = Ram {
            test_dice: 2,
            leadership: 8,
            rammer_starting: 8,
            rammer_remaining: 8,
            rammer_front_armour: 6,
            target_armour: 5,
            target_starting: 8,
            target_remaining: 8,
            return_dice: 4,
        };
        let model = RamModel::new(ram.into_rule());
        assert_eq!(model.sampler(), RAM_SAMPLER);
        let tally = run(&model);
        let pass = 26.0 / 36.0;
        let dealt = points(pass, 8, 1.0 / 3.0);
        let taken = points(pass, 4, 1.0 / 6.0);
        let mut want = vec![("p_ram_succeeds".to_string(), pass)];
        want.extend((0..=8).map(|k| (format!("dealt={k}"), dealt(k))));
        want.extend((0..=4).map(|k| (format!("taken={k}"), taken(k))));
        holds(&model, &tally, &want);
    }

    /// Pools past one word and past whole groups of four: 13 dice each
    /// way (four slots each, the last of one die), head on against a
    /// larger ship, so the test is one D6 under Leadership 4 (4/6). The
    /// rammer's dice score on 4+ (1/2) against armour 4, the return dice
    /// on 3+ (2/3) against front armour 3.
    #[test]
    fn pools_past_a_word_and_odd_dice_follow_the_law_by_hand() {
        let ram = Ram {
            test_dice: 1,
            leadership: 4,
            rammer_starting: 13,
            rammer_remaining: 13,
            rammer_front_armour: 3,
            target_armour: 4,
            target_starting: 13,
            target_remaining: 13,
            return_dice: 13,
        };
        let model = RamModel::new(ram.into_rule());
        let t = model.tables().expect("tables");
        assert_eq!(t.slots.len(), 8, "two words of four slots");
        let tally = run(&model);
        let pass = 4.0 / 6.0;
        let dealt = points(pass, 13, 0.5);
        let taken = points(pass, 13, 2.0 / 3.0);
        let mut want = vec![("p_ram_succeeds".to_string(), pass)];
        want.extend((0..=13).map(|k| (format!("dealt={k}"), dealt(k))));
        want.extend((0..=13).map(|k| (format!("taken={k}"), taken(k))));
        holds(&model, &tally, &want);
    }
}
