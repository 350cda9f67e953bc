//! A [`Model`] from a mechanic written as a fixed number of steps on a
//! state: the reference sampler runs the steps on batched dice, the exact
//! evaluator runs the same steps under [`StateDist`], merging equal states
//! between steps, and the fast sampler the engine picks walks the steps one
//! exact step law at a time ([`Sampler::StepLaws`]), or, where a trial
//! rolls few dice, draws them all at once from a face table
//! ([`Sampler::FaceTable`]), or, for a rule of one step, counts the real
//! dice's endings ([`Sampler::CountedDice`]). A new rule needs only its
//! steps and its metrics.

use super::faces::{FaceTable, PlannedTable};
use super::walk::{DenseEnds, Law, SharedLaws, Walk};
use super::{EXACT_WORK, MetricDef, MetricList, Model, NoExact, Sampler, TrialValues};
use crate::dice::{
    BatchedRoller, Expectation, MetricSink, Replay, Roller, StateDist, Tally, Times,
};
use std::hash::Hash;

/// Cap on dice paths for one step of the exact evaluator.
pub const STEP_PATHS: usize = 1 << 16;

/// A mechanic as steps on a state.
pub trait Mechanic: Send + Sync {
    /// Everything the mechanic has done so far.
    type State: Ord + Hash + Clone + Send + Sync;

    /// The state before any dice are rolled.
    fn start(&self) -> Self::State;

    /// How many steps a trial takes (steps may do nothing on some states).
    fn steps(&self) -> usize;

    /// Step `i` of a trial.
    fn step<R: Roller>(&self, i: usize, dice: &mut R, state: &mut Self::State);

    /// How many steps the fast sampler draws at once from their joint
    /// exact law (an attacker's round of several sub-steps, say): fewer
    /// random words where sub-steps mean little alone.
    fn steps_per_draw(&self) -> usize {
        1
    }

    /// Where the counted-dice sampler tallies a final state in a dense table
    /// (`< end_slots()`), instead of hashing it: for rules whose endings
    /// are a few small counts; equal slots must mean equal states. `None`
    /// (the default): hash it.
    fn end_slot(&self, _state: &Self::State) -> Option<usize> {
        None
    }

    /// Slots of [`Mechanic::end_slot`]'s table (0: no table).
    fn end_slots(&self) -> usize {
        0
    }

    /// The metrics it records, with the handles `record` uses.
    fn metrics(&self) -> &MetricList;

    /// Records the metrics of a finished trial.
    fn record(&self, state: &Self::State, sink: &mut impl MetricSink);
}

/// A state with the step it stands at, as the step-law walk keys it.
type Node<M> = (usize, <M as Mechanic>::State);

/// Trials of the pilot that picks a step model's sampler.
const PILOT_TRIALS: u64 = 4096;

/// The model of a [`Mechanic`].
pub struct StepModel<M: Mechanic> {
    mechanic: M,
    /// Step `i`'s law from each state met, keyed `(i, state)`.
    laws: SharedLaws<(usize, M::State)>,
    /// The sampler, picked by a pilot the first time it is asked.
    sampler: std::sync::OnceLock<Sampler>,
    /// Every face combination of a trial's dice with its final state, where
    /// the dice are few (laid out the first time the sampler is picked).
    faces: PlannedTable<M::State>,
}

impl<M: Mechanic> StepModel<M> {
    /// Wraps `mechanic`.
    pub fn new(mechanic: M) -> Self {
        StepModel {
            mechanic,
            laws: SharedLaws::default(),
            sampler: std::sync::OnceLock::new(),
            faces: PlannedTable::default(),
        }
    }

    fn faces(&self) -> Option<&FaceTable<M::State>> {
        self.faces.get(|d| self.trial(d))
    }

    /// Step laws where their draws stand for clearly more dice: a step of
    /// one die costs a word as a draw but a fraction of one as a die, a
    /// step of a pool the other way round. A pilot of [`PILOT_TRIALS`]
    /// trials of each on one fixed stream (the same for every seed, so the
    /// choice, and with it every result, is the same run to run) counts the
    /// words the step laws draw and the dice the rule rolls. A rule of one
    /// draw always counts its real dice: drawing it from its law would draw
    /// the whole trial from the exact answer.
    fn pick_sampler(&self) -> Sampler {
        if self.faces().is_some() {
            return Sampler::FaceTable;
        }
        if self.draws() < 2 {
            return Sampler::CountedDice;
        }
        let pilot = |run: &dyn Fn(&mut BatchedRoller, &mut Tally)| {
            let mut dice = BatchedRoller::new(0, &[u64::MAX]);
            run(&mut dice, &mut Tally::new(self.mechanic.metrics().len()));
            (dice.words(), dice.dice())
        };
        let (laws, _) = pilot(&|d, t| self.run_step_laws(d, PILOT_TRIALS, t));
        let (_, dice) = pilot(&|d, t| self.run_counted(d, PILOT_TRIALS, t));
        // a draw costs a whole word and a table look-up where a die costs a
        // fraction of a word: step laws pay where they stand for a third
        // more dice than they draw words (calibrated on every step model
        // of the registry, docs/BENCHMARKS.md)
        if 4 * laws <= 3 * dice {
            Sampler::StepLaws
        } else {
            Sampler::CountedDice
        }
    }

    /// The reference sampler: every step on real dice, every metric
    /// recorded every trial.
    pub fn run_trials(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        for _ in 0..trials {
            let s = self.trial(roller);
            self.mechanic.record(&s, tally);
            tally.finish_trial();
        }
    }

    /// A trial a draw from the face table; trials past it on real dice.
    fn run_faces(
        &self,
        table: &FaceTable<M::State>,
        roller: &mut BatchedRoller,
        trials: u64,
        tally: &mut Tally,
    ) {
        let mut past = DenseEnds::new(self.mechanic.end_slots());
        let counts = table.count(
            roller,
            trials,
            |d| self.trial(d),
            |end| past.add(self.mechanic.end_slot(&end), end),
        );
        let counted = table.ends().iter().zip(counts).filter(|(_, n)| *n > 0);
        self.record_ends(counted.chain(past.ends()), trials, tally);
    }

    /// Real dice, each ending counted and recorded once.
    fn run_counted(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let slots = self.mechanic.end_slots();
        if slots > 0 {
            let mut ends = DenseEnds::new(slots);
            for _ in 0..trials {
                let end = self.trial(roller);
                ends.add(self.mechanic.end_slot(&end), end);
            }
            self.record_ends(ends.ends(), trials, tally);
            return;
        }
        let mut walk: Walk<M::State> = Walk::default();
        for _ in 0..trials {
            let end = self.trial(roller);
            let id = walk.id(&end);
            walk.end(id);
        }
        self.record_ends(walk.ends(), trials, tally);
    }

    /// The steps the fast sampler draws at once from step `i` on.
    fn draw_from(&self, i: usize) -> std::ops::Range<usize> {
        let per = self.mechanic.steps_per_draw().max(1);
        i..(i + per).min(self.mechanic.steps())
    }

    /// How many draws a trial takes.
    fn draws(&self) -> usize {
        self.mechanic
            .steps()
            .div_ceil(self.mechanic.steps_per_draw().max(1))
    }

    /// Each draw of steps from its exact law once its state is warm.
    fn run_step_laws(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let mut walk: Walk<(usize, M::State)> = Walk::default();
        let start = walk.id(&(0, self.mechanic.start()));
        let law = |(i, s): &(usize, M::State)| -> Option<Law<(usize, M::State)>> {
            self.laws
                .get(&(*i, s.clone()), || self.step_law(*i, s, &mut 0))
        };
        let play = |(i, s): &(usize, M::State), r: &mut BatchedRoller| {
            let mut t = s.clone();
            let steps = self.draw_from(*i);
            let end = steps.end;
            for j in steps {
                self.mechanic.step(j, r, &mut t);
            }
            (end, t)
        };
        let draws = self.draws();
        // steps laid out flat (no follow-up, never over): a warm step is
        // one look-up, with no branch on how its state's table is kept
        let same = |k: &(usize, M::State)| k.clone();
        walk.run_steps(start, draws, trials, roller, law, play, same);
        self.record_ends(walk.ends().map(|((_, s), n)| (s, n)), trials, tally);
    }

    fn record_ends<'a>(
        &self,
        ends: impl Iterator<Item = (&'a M::State, u64)>,
        trials: u64,
        tally: &mut Tally,
    ) where
        M::State: 'a,
    {
        for (s, count) in ends {
            self.mechanic.record(
                s,
                &mut Times {
                    tally: &mut *tally,
                    count,
                },
            );
        }
        tally.add_trials(trials);
    }

    /// The mechanic.
    pub fn mechanic(&self) -> &M {
        &self.mechanic
    }

    /// One trial's final state.
    pub fn trial(&self, dice: &mut impl Roller) -> M::State {
        let mut s = self.mechanic.start();
        for i in 0..self.mechanic.steps() {
            self.mechanic.step(i, dice, &mut s);
        }
        s
    }

    /// The exact law of the state after steps `steps` from `s`, or `None`
    /// when a step cannot be enumerated.
    pub fn law_of_steps(
        &self,
        s: &M::State,
        steps: std::ops::Range<usize>,
    ) -> Option<Vec<(M::State, f64)>> {
        self.law_of_steps_counted(s, steps, &mut 0)
    }

    /// [`StepModel::law_of_steps`], adding the dice paths it visits to
    /// `visited`.
    fn law_of_steps_counted(
        &self,
        s: &M::State,
        steps: std::ops::Range<usize>,
        visited: &mut u64,
    ) -> Option<Vec<(M::State, f64)>> {
        let mut d = StateDist::certain(s.clone());
        for i in steps {
            d = d
                .step_counted(STEP_PATHS, visited, |r: &mut Replay, s| {
                    self.mechanic.step(i, r, s)
                })
                .ok()?;
        }
        Some(d.iter().map(|(s, p)| (s.clone(), p)).collect())
    }

    /// The exact distribution of final states, or why there is none.
    ///
    /// Where the fast sampler draws one step at a time, the exact
    /// evaluator reads the step laws it keeps ([`SharedLaws`]), so a run
    /// that does both enumerates each state's step once. The sums run in the
    /// same order as [`StateDist::step`]'s. The work (dice paths enumerated,
    /// outcomes merged) stops at [`EXACT_WORK`].
    pub fn exact_states(&self) -> Result<StateDist<M::State>, NoExact> {
        let too_much = NoExact::TooMuchWork { limit: EXACT_WORK };
        let too_many = NoExact::TooManyPaths { limit: STEP_PATHS };
        let mut work = 0u64;
        let mut d = StateDist::certain(self.mechanic.start());
        for i in 0..self.mechanic.steps() {
            if self.mechanic.steps_per_draw() > 1 {
                d = d
                    .step_counted(STEP_PATHS, &mut work, |r: &mut Replay, s| {
                        self.mechanic.step(i, r, s)
                    })
                    .map_err(|_| too_many.clone())?;
                if work > EXACT_WORK {
                    return Err(too_much);
                }
                continue;
            }
            let mut next: std::collections::BTreeMap<M::State, f64> = Default::default();
            for (s, p) in d.iter() {
                let mut visited = 0;
                let law = self
                    .laws
                    .get(&(i, s.clone()), || self.step_law(i, s, &mut visited))
                    .ok_or_else(|| too_many.clone())?;
                work += visited + law.len() as u64;
                if work > EXACT_WORK {
                    return Err(too_much);
                }
                for ((_, t), q) in law.iter() {
                    *next.entry(t.clone()).or_insert(0.0) += p * q;
                }
            }
            d = StateDist::from_pairs(next);
        }
        Ok(d)
    }

    /// The law of the draw that starts at step `i` from `s`, keyed by the
    /// step the draw ends at (the dice paths it visits added to `visited`).
    fn step_law(&self, i: usize, s: &M::State, visited: &mut u64) -> Option<Vec<(Node<M>, f64)>> {
        let steps = self.draw_from(i);
        let end = steps.end;
        let law = self.law_of_steps_counted(s, steps, visited)?;
        Some(law.into_iter().map(|(t, p)| ((end, t), p)).collect())
    }
}

impl<M: Mechanic> Model for StepModel<M> {
    fn metrics(&self) -> &[MetricDef] {
        self.mechanic.metrics().defs()
    }

    fn plan(&self, trials: u64) {
        self.faces.plan(trials);
    }

    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        match self.sampler() {
            Sampler::StepLaws => self.run_step_laws(roller, trials, tally),
            Sampler::FaceTable => match self.faces() {
                Some(table) => self.run_faces(table, roller, trials, tally),
                None => self.run_counted(roller, trials, tally),
            },
            _ => self.run_counted(roller, trials, tally),
        }
    }

    /// See [`StepModel::pick_sampler`].
    fn sampler(&self) -> Sampler {
        *self.sampler.get_or_init(|| self.pick_sampler())
    }

    fn run_reference(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        self.run_trials(roller, trials, tally);
    }

    fn exact(&self) -> Option<Vec<f64>> {
        self.exact_or_why().ok()
    }

    fn exact_or_why(&self) -> Result<Vec<f64>, NoExact> {
        let states = self.exact_states()?;
        let mut e = Expectation::new(self.mechanic.metrics().len());
        for (s, p) in states.iter() {
            e.set_weight(p);
            self.mechanic.record(s, &mut e);
        }
        Ok(e.into_values())
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        let s = self.trial(roller);
        self.mechanic.record(&s, &mut TrialValues(values));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{MetricDecl, MetricList};
    use crate::experiment::significance::{binomial_exact_p, mean_p};

    /// A tiny rule whose law is known by hand: `dice` D6 a step, three
    /// steps; a step hits when its highest die shows 5 or 6, and a step
    /// whose dice show a 1 fumbles, after which the later steps roll
    /// nothing.
    struct Volley {
        dice: u32,
        per_draw: usize,
        list: MetricList,
        m: [Metric; 3],
    }

    use crate::dice::Metric;

    const DECLS: [MetricDecl; 3] = [
        MetricDecl::probability("p_three_hits", "P(three hits)", "every step hits"),
        MetricDecl::mean("mean_hits", "mean hits", "hits before a fumble"),
        MetricDecl::probability("p_fumbled", "P(fumbled)", "a step showed a 1"),
    ];

    fn volley(dice: u32, per_draw: usize) -> StepModel<Volley> {
        let mut list = MetricList::new();
        let m = DECLS.each_ref().map(|d| list.add(d));
        StepModel::new(Volley {
            dice,
            per_draw,
            list,
            m,
        })
    }

    impl Mechanic for Volley {
        /// (hits, fumbled)
        type State = (u8, bool);

        fn start(&self) -> (u8, bool) {
            (0, false)
        }

        fn steps(&self) -> usize {
            3
        }

        fn step<R: Roller>(&self, _i: usize, dice: &mut R, s: &mut (u8, bool)) {
            if s.1 {
                return;
            }
            let faces: Vec<u32> = (0..self.dice).map(|_| dice.d6()).collect();
            if faces.contains(&1) {
                s.1 = true;
            } else if faces.iter().any(|&f| f >= 5) {
                s.0 += 1;
            }
        }

        fn steps_per_draw(&self) -> usize {
            self.per_draw
        }

        fn metrics(&self) -> &MetricList {
            &self.list
        }

        fn record(&self, s: &(u8, bool), sink: &mut impl MetricSink) {
            sink.record(self.m[0], u64::from(s.0 == 3));
            sink.record(self.m[1], u64::from(s.0));
            sink.record(self.m[2], u64::from(s.1));
        }
    }

    /// By hand, one die a step: a 1 fumbles (1/6), 5-6 hits (1/3), 2-4
    /// neither (1/2). Three hits: (1/3)^3 = 1/27. Fumbled: 1 - (5/6)^3 =
    /// 91/216. Mean hits: step i hits when no earlier step fumbled and it
    /// hits: 1/3 (1 + 5/6 + 25/36) = 91/108.
    /// Two dice a step: no 1 is (5/6)^2 = 25/36; of those, no 5 or 6 is
    /// (3/6)^2 = 9/36, so a hit 16/36 = 4/9 and a fumble 11/36. Three hits:
    /// 64/729; fumbled 1 - (25/36)^3 = 31031/46656; mean hits 4/9 (1 +
    /// 25/36 + 625/1296) = 4/9 * 2821/1296 = 2821/2916.
    fn by_hand(dice: u32) -> [f64; 3] {
        match dice {
            1 => [1.0 / 27.0, 91.0 / 108.0, 91.0 / 216.0],
            2 => [64.0 / 729.0, 2821.0 / 2916.0, 31031.0 / 46656.0],
            _ => unreachable!(),
        }
    }

    #[test]
    fn the_exact_evaluator_gives_the_law_by_hand() {
        for dice in [1, 2] {
            for per_draw in [1, 2, 3] {
                let e = volley(dice, per_draw).exact().unwrap();
                for (got, want) in e.iter().zip(by_hand(dice)) {
                    assert!(
                        (got - want).abs() < 1e-15,
                        "{dice} dice, {per_draw} a draw: {got} vs {want}"
                    );
                }
            }
        }
    }

    /// Every sampler (the reference, counted dice, step laws one step or
    /// two a draw, the face table where three steps of one die fit it)
    /// against the law by hand, at fixed seeds: exact binomial tests for
    /// the probabilities, a z-test for the mean with its sample variance,
    /// Bonferroni over all 30 at a family-wise 1e-6.
    #[test]
    fn every_sampler_follows_the_law_by_hand() {
        let n = 100_000u64;
        let alpha = 1e-6 / 30.0;
        for dice in [1, 2] {
            let want = by_hand(dice);
            for (k, which) in ["reference", "counted", "laws", "laws by two", "face table"]
                .iter()
                .enumerate()
            {
                let model = volley(dice, if k == 3 { 2 } else { 1 });
                let mut r = BatchedRoller::new(17, &[u64::from(dice), k as u64]);
                let mut t = Tally::new(3);
                match k {
                    0 => model.run_trials(&mut r, n, &mut t),
                    1 => model.run_counted(&mut r, n, &mut t),
                    4 => match model.faces() {
                        Some(table) => model.run_faces(table, &mut r, n, &mut t),
                        // six dice, 46,656 combinations: past the table
                        None if dice == 2 => continue,
                        None => panic!("three D6 fit a face table"),
                    },
                    _ => model.run_step_laws(&mut r, n, &mut t),
                }
                assert_eq!(t.trials(), n, "{which}");
                for i in [0, 2] {
                    let p = binomial_exact_p(t.sum(i), n, want[i]);
                    assert!(p > alpha, "{which} {dice} dice, metric {i}: p = {p:e}");
                }
                let mean = t.sum(1) as f64 / n as f64;
                let var = t.sum_sq(1) as f64 / n as f64 - mean * mean;
                let p = mean_p(mean, var, n, want[1], 0.0);
                assert!(p > alpha, "{which} {dice} dice, mean: {mean} p = {p:e}");
            }
        }
    }

    /// A trial of three dice fits a face table (216 combinations),
    /// whatever its draws. Past the table: one draw a trial counts real
    /// dice (a draw from its law would be the exact answer); one die a step
    /// costs a fraction of a word as dice and a word as a draw, so the
    /// pilot keeps the dice; five dice a step stand for more dice than the
    /// draws cost words: step laws.
    #[test]
    fn the_pilot_picks_the_sampler_by_its_cost() {
        assert_eq!(volley(1, 3).sampler(), Sampler::FaceTable);
        assert_eq!(volley(1, 1).sampler(), Sampler::FaceTable);
        assert_eq!(volley(6, 3).sampler(), Sampler::CountedDice);
        assert_eq!(volley(5, 1).sampler(), Sampler::StepLaws);
    }

    /// Seven dice a step are 6^7 = 279,936 paths, past [`STEP_PATHS`]:
    /// no exact value, and the reason says so.
    #[test]
    fn a_step_past_the_path_cap_has_no_exact_value_and_says_why() {
        let model = volley(7, 1);
        assert!(model.exact().is_none());
        assert!(matches!(
            model.exact_or_why(),
            Err(NoExact::TooManyPaths { limit: STEP_PATHS })
        ));
    }
}
