//! A [`Model`] for "repeat until" rules: a round, written once as
//! sub-steps on a state, repeats until the state says it is over (a
//! boarding grapple until one ship is taken, a fire until it goes out). The
//! reference sampler loops rounds on real dice; the exact evaluator
//! enumerates one round (merging equal states between sub-steps) and solves
//! the chain with the kernel's [`absorb_monotone`], which needs every cycle
//! to be a self-loop; the fast sampler walks the chain a round at a time,
//! each round one draw from that round's exact law ([`Sampler::RoundLaws`]),
//! or, where a whole trial rolls few dice, draws them all at once from a
//! face table ([`Sampler::FaceTable`]).

use super::faces::{FaceTable, PlannedTable};
use super::walk::{Counts, Law, OVER, SharedLaws, Walk};
use super::{EXACT_WORK, MetricDecl, MetricDef, MetricList, Model, NoExact, Sampler, TrialValues};
use crate::dice::{
    BatchedRoller, Expectation, Metric, MetricSink, Replay, Roller, StateDist, Tally, Times,
    absorb_monotone,
};
use std::hash::Hash;

/// Cap on dice paths for one sub-step of the exact evaluator.
const PATHS: usize = 1 << 16;

/// A rule that repeats a round until it is over.
pub trait Repeated: Send + Sync {
    /// Everything the rule has done so far.
    type State: Ord + Hash + Clone + Send + Sync;

    /// What one round is called in metric names (`end_phases`, `turns`).
    const ROUND: &'static str;

    /// The state before the first round.
    fn start(&self) -> Self::State;

    /// Whether the rule is over.
    fn over(&self, state: &Self::State) -> bool;

    /// Sub-steps of one round.
    fn sub_steps(&self) -> usize;

    /// Sub-step `i` of a round.
    fn sub_step<R: Roller>(&self, i: usize, dice: &mut R, state: &mut Self::State);

    /// The rule's own metrics, with the handles `record` uses.
    fn metrics(&self) -> &MetricList;

    /// Records the rule's own metrics for a finished state.
    fn record(&self, state: &Self::State, sink: &mut impl MetricSink);

    /// Records metrics of the first round alone, from the state at its end
    /// (before [`end_round`](Repeated::end_round) clears what only that
    /// round needed). Those fields stay out of the chain's states, so they
    /// neither multiply them nor break the "only self-loops" order.
    fn record_first_round(&self, _state: &Self::State, _sink: &mut impl MetricSink) {}

    /// Whether [`record_first_round`](Repeated::record_first_round)
    /// records anything: the fast sampler counts where first rounds led
    /// only then (a rule that records first-round metrics and leaves this
    /// false gets them as zero, which the conformance suite catches).
    const FIRST_ROUND: bool = false;

    /// Whether the fast sampler walks its rounds wide (see `walk/wide.rs`;
    /// the default). A rule whose trials are short and spread over many
    /// states, most met too seldom in a chunk to be laid out wide, walks
    /// faster in the narrow lanes, where every warm state is one flat
    /// look-up.
    const WIDE: bool = true;

    /// Clears what only the round just played needed (its dice, its
    /// winner), at the end of every round.
    fn end_round(&self, _state: &mut Self::State) {}
}

/// The metrics every repeated rule adds, with `{round}` standing for
/// [`Repeated::ROUND`] (declared once here for every scenario that repeats).
pub const ROUND_METRICS: [(&str, &str, &str); 3] = [
    (
        "mean_{round}",
        "mean {round} until over",
        "expected rounds until it is over",
    ),
    (
        "{round}={k}",
        "P(over after {k} {round})",
        "P(over after exactly k rounds)",
    ),
    (
        "{round}>{k}",
        "P(not over after {k} {round})",
        "P(not over after the last round shown)",
    ),
];

/// The declarations of [`ROUND_METRICS`] for a rule whose rounds are called
/// `round` (leaked once per name, so they can be `'static`).
pub fn round_metrics(round: &'static str) -> [MetricDecl; 3] {
    use std::collections::BTreeMap;
    use std::sync::Mutex;
    static MADE: Mutex<BTreeMap<&'static str, [MetricDecl; 3]>> = Mutex::new(BTreeMap::new());
    let mut made = MADE.lock().unwrap_or_else(|p| p.into_inner());
    *made.entry(round).or_insert_with(|| {
        let fill = |t: &str| -> &'static str { Box::leak(t.replace("{round}", round).into()) };
        // labels are read by people: "end phases", not "end_phases"
        let words = round.replace('_', " ");
        let say = |t: &str| -> &'static str { Box::leak(t.replace("{round}", &words).into()) };
        let [mean, exactly, beyond] = ROUND_METRICS;
        [
            MetricDecl::mean(fill(mean.0), say(mean.1), mean.2),
            MetricDecl::probability(fill(exactly.0), say(exactly.1), exactly.2),
            MetricDecl::probability(fill(beyond.0), say(beyond.1), beyond.2),
        ]
    })
}

/// The model of a [`Repeated`] rule: its own metrics, then
/// `mean_<rounds>`, `<rounds>=k` for `k = 1..=shown` and `<rounds>>shown`.
pub struct RepeatModel<M: Repeated> {
    rule: M,
    metrics: MetricList,
    mean_rounds: Metric,
    /// `rounds[k - 1]` is "over after exactly k rounds"; the last is
    /// "not over after `shown`".
    rounds: Vec<Metric>,
    shown: usize,
    /// The law of a round from each state met.
    laws: SharedLaws<M::State>,
    /// Every face combination of a trial's dice with how the trial went,
    /// where the dice are few (laid out the first time the model samples).
    faces: PlannedTable<Ending<M::State>>,
}

/// How a trial went, all its metrics need: the state after its first round
/// (none if over at the start), its final state, its rounds.
type Ending<S> = (Option<S>, S, usize);

impl<M: Repeated> RepeatModel<M> {
    /// Wraps `rule`; round counts up to `shown` are reported one by one.
    pub fn new(rule: M, shown: usize) -> Self {
        let mut metrics = rule.metrics().clone();
        let [mean, exactly, beyond] = round_metrics(M::ROUND);
        let mean_rounds = metrics.add(&mean);
        let mut rounds = metrics.family(&exactly, 1..=shown);
        rounds.push(metrics.add_k(&beyond, shown));
        RepeatModel {
            rule,
            metrics,
            mean_rounds,
            rounds,
            shown,
            laws: SharedLaws::default(),
            faces: PlannedTable::default(),
        }
    }

    fn faces(&self) -> Option<&FaceTable<Ending<M::State>>> {
        self.faces.get(|d| self.ending(d))
    }

    /// One trial on `dice`, as its metrics need it.
    fn ending(&self, dice: &mut impl Roller) -> Ending<M::State> {
        let mut s = self.rule.start();
        let mut first = None;
        let mut rounds = 0;
        while !self.rule.over(&s) {
            self.play_round(dice, &mut s);
            if rounds == 0 {
                first = Some(s.clone());
            }
            self.rule.end_round(&mut s);
            rounds += 1;
        }
        (first, s, rounds)
    }

    /// A trial a draw from the face table; trials past it on real dice.
    fn run_faces(
        &self,
        table: &FaceTable<Ending<M::State>>,
        roller: &mut BatchedRoller,
        trials: u64,
        tally: &mut Tally,
    ) {
        let mut past: Walk<Ending<M::State>> = Walk::default();
        let counts = table.count(
            roller,
            trials,
            |d| self.ending(d),
            |end| {
                let id = past.id(&end);
                past.end(id);
            },
        );
        let counted = table.ends().iter().zip(counts).filter(|(_, n)| *n > 0);
        for ((first, end, rounds), count) in counted.chain(past.ends()) {
            let sink = &mut Times {
                tally: &mut *tally,
                count,
            };
            if let Some(first) = first {
                self.rule.record_first_round(first, sink);
            }
            self.rule.record(end, sink);
            self.record_rounds(*rounds, sink);
        }
        tally.add_trials(trials);
    }

    /// The reference sampler: every round on real dice, every metric
    /// recorded every trial.
    pub fn run_trials(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        for _ in 0..trials {
            self.trial(roller, tally);
            tally.finish_trial();
        }
    }

    /// Each round drawn from its exact law once its state is warm; where
    /// trials ended, what their first round did and how many rounds they
    /// took are counted and recorded once each at the end.
    fn run_round_laws(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let rule = &self.rule;
        let mut walk: Walk<M::State> = Walk::default();
        walk.set_wide(M::WIDE);
        let start = walk.id(&rule.start());
        let law =
            |s: &M::State| -> Option<Law<M::State>> { self.laws.get(s, || self.round_law(s)) };
        let play = |s: &M::State, r: &mut BatchedRoller| {
            let mut t = s.clone();
            self.play_round(r, &mut t);
            t
        };
        let end_round = |s: &M::State| {
            let mut t = s.clone();
            rule.end_round(&mut t);
            t
        };
        let is_over = |s: &M::State| rule.over(s);
        let mut firsts = Counts::default();
        let mut lengths = Counts::default();
        let start_over = walk.marked(start, is_over) & OVER != 0;
        if start_over {
            for _ in 0..trials {
                walk.end(start);
            }
            lengths.add_n(0, trials);
        } else {
            walk.run_until_over(
                start,
                trials,
                roller,
                law,
                play,
                end_round,
                is_over,
                &mut lengths,
                M::FIRST_ROUND.then_some(&mut firsts),
            );
        }
        for (id, count) in firsts.iter() {
            rule.record_first_round(walk.key(id as u32), &mut Times { tally, count });
        }
        for (s, count) in walk.ends() {
            rule.record(s, &mut Times { tally, count });
        }
        for (rounds, count) in lengths.iter() {
            self.record_rounds(rounds, &mut Times { tally, count });
        }
        tally.add_trials(trials);
    }

    /// The rule.
    pub fn rule(&self) -> &M {
        &self.rule
    }

    fn trial(&self, dice: &mut impl Roller, sink: &mut impl MetricSink) {
        self.trial_with(dice, sink, |d, s| self.play_round(d, s));
    }

    /// Records the rounds metrics of a trial that took `rounds` rounds.
    pub fn record_rounds(&self, rounds: usize, sink: &mut impl MetricSink) {
        sink.record(self.mean_rounds, rounds as u64);
        sink.record(self.rounds[rounds.min(self.shown + 1) - 1], 1);
    }

    /// One round through the rule's sub-steps.
    pub fn play_round(&self, dice: &mut impl Roller, s: &mut M::State) {
        for i in 0..self.rule.sub_steps() {
            self.rule.sub_step(i, dice, s);
        }
    }

    /// One trial whose rounds `round` plays (the sub-steps, or a faster
    /// sampler of the same law), recording every metric.
    pub fn trial_with<R>(
        &self,
        dice: &mut R,
        sink: &mut impl MetricSink,
        mut round: impl FnMut(&mut R, &mut M::State),
    ) {
        let mut s = self.rule.start();
        let mut rounds = 0;
        while !self.rule.over(&s) {
            round(dice, &mut s);
            if rounds == 0 {
                self.rule.record_first_round(&s, sink);
            }
            self.rule.end_round(&mut s);
            rounds += 1;
        }
        self.rule.record(&s, sink);
        self.record_rounds(rounds, sink);
    }

    /// The exact law of the state at the end of one round from `s`, before
    /// [`Repeated::end_round`], or `None` when it cannot be enumerated. A
    /// fast sampler can walk the chain with it, one draw per round.
    pub fn round_law(&self, s: &M::State) -> Option<Vec<(M::State, f64)>> {
        self.round_law_counted(s, &mut 0)
    }

    /// [`RepeatModel::round_law`], adding the dice paths it visits to
    /// `visited`.
    fn round_law_counted(&self, s: &M::State, visited: &mut u64) -> Option<Vec<(M::State, f64)>> {
        Some(
            self.round_from(s, visited)?
                .iter()
                .map(|(b, p)| (b.clone(), p))
                .collect(),
        )
    }

    /// The exact distribution of states at the end of one round from `s`,
    /// before [`Repeated::end_round`].
    fn round_from(&self, s: &M::State, visited: &mut u64) -> Option<StateDist<M::State>> {
        let mut d = StateDist::certain(s.clone());
        for i in 0..self.rule.sub_steps() {
            d = d
                .step_counted(PATHS, visited, |r: &mut Replay, b| {
                    self.rule.sub_step(i, r, b)
                })
                .ok()?;
        }
        Some(d)
    }

    /// The exact one-round transition from `s`, adding its work (dice paths
    /// enumerated, outcomes merged) to `work`.
    /// Reads the round laws the fast sampler keeps ([`SharedLaws`]), so a
    /// run that does both enumerates each state's round once.
    fn transition(&self, s: &M::State, work: &mut u64) -> Option<Vec<(M::State, f64)>> {
        let mut merged: std::collections::BTreeMap<M::State, f64> = Default::default();
        let mut visited = 0;
        let law = self
            .laws
            .get(s, || self.round_law_counted(s, &mut visited))?;
        *work += visited + law.len() as u64;
        for (b, p) in law.iter() {
            let mut b = b.clone();
            self.rule.end_round(&mut b);
            *merged.entry(b).or_insert(0.0) += p;
        }
        Some(merged.into_iter().collect())
    }
}

impl<M: Repeated> Model for RepeatModel<M> {
    fn metrics(&self) -> &[MetricDef] {
        self.metrics.defs()
    }

    fn plan(&self, trials: u64) {
        self.faces.plan(trials);
    }

    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        match self.faces() {
            Some(table) => self.run_faces(table, roller, trials, tally),
            None => self.run_round_laws(roller, trials, tally),
        }
    }

    fn sampler(&self) -> Sampler {
        if self.faces().is_some() {
            Sampler::FaceTable
        } else if M::WIDE && !M::FIRST_ROUND {
            Sampler::WideRoundLaws
        } else {
            Sampler::RoundLaws
        }
    }

    fn run_reference(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        self.run_trials(roller, trials, tally);
    }

    fn exact(&self) -> Option<Vec<f64>> {
        self.exact_or_why().ok()
    }

    /// The chain solved, its work (dice paths enumerated and outcomes
    /// merged, round by round) stopped at [`EXACT_WORK`].
    fn exact_or_why(&self) -> Result<Vec<f64>, NoExact> {
        let mut work = 0u64;
        let mut too_much = false;
        let a = absorb_monotone(
            &self.rule.start(),
            self.shown,
            &|s: &M::State| self.rule.over(s),
            &mut |s: &M::State| {
                if work > EXACT_WORK {
                    too_much = true;
                    return None;
                }
                self.transition(s, &mut work)
            },
        )
        .ok_or(if too_much {
            NoExact::TooMuchWork { limit: EXACT_WORK }
        } else {
            NoExact::TooManyPaths { limit: PATHS }
        })?;
        let mut e = Expectation::new(self.metrics.len());
        let start = self.rule.start();
        if !self.rule.over(&start) {
            let first = self
                .round_from(&start, &mut 0)
                .ok_or(NoExact::TooManyPaths { limit: PATHS })?;
            for (s, p) in first.iter() {
                e.set_weight(p);
                self.rule.record_first_round(s, &mut e);
            }
        }
        for (f, p) in &a.finals {
            e.set_weight(*p);
            self.rule.record(f, &mut e);
        }
        for k in 1..=self.shown + 1 {
            e.set_weight(a.steps[k]);
            e.record(self.rounds[k - 1], 1);
        }
        e.set_weight(a.mean_steps);
        e.record(self.mean_rounds, 1);
        Ok(e.into_values())
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        self.trial(roller, &mut TrialValues(values));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::significance::{binomial_exact_p, mean_p};

    /// A tiny rule whose law is known by hand: each turn rolls two D6 (two
    /// sub-steps); it is over after a turn that showed a 6. It records
    /// whether any turn showed a 1, and whether the first turn did.
    struct Sixes {
        list: MetricList,
        m: [Metric; 2],
    }

    /// (over, a 1 seen, a 1 seen this turn)
    type State = (bool, bool, bool);

    const DECLS: [MetricDecl; 2] = [
        MetricDecl::probability("p_one", "P(a 1)", "a turn showed a 1"),
        MetricDecl::probability("p_first_one", "P(a 1 first)", "the first turn showed a 1"),
    ];

    impl Repeated for Sixes {
        type State = State;
        const ROUND: &'static str = "turns";

        fn start(&self) -> State {
            (false, false, false)
        }

        fn over(&self, s: &State) -> bool {
            s.0
        }

        fn sub_steps(&self) -> usize {
            2
        }

        fn sub_step<R: Roller>(&self, _i: usize, dice: &mut R, s: &mut State) {
            match dice.d6() {
                6 => s.0 = true,
                1 => (s.1, s.2) = (true, true),
                _ => {}
            }
        }

        fn metrics(&self) -> &MetricList {
            &self.list
        }

        fn record(&self, s: &State, sink: &mut impl MetricSink) {
            sink.record(self.m[0], u64::from(s.1));
        }

        fn record_first_round(&self, s: &State, sink: &mut impl MetricSink) {
            sink.record(self.m[1], u64::from(s.2));
        }

        const FIRST_ROUND: bool = true;

        fn end_round(&self, s: &mut State) {
            s.2 = false;
        }
    }

    fn sixes() -> RepeatModel<Sixes> {
        let mut list = MetricList::new();
        let m = DECLS.each_ref().map(|d| list.add(d));
        RepeatModel::new(Sixes { list, m }, 2)
    }

    /// By hand: a turn shows a 6 with 1 - (5/6)^2 = 11/36, so the turns
    /// are geometric: 1 with 11/36, 2 with 25/36 * 11/36 = 275/1296, more
    /// than 2 with (25/36)^2 = 625/1296, 36/11 on average. The first turn
    /// shows a 1 with 11/36. No 1 ever: the last turn has a 6 and no 1
    /// (25/36 - 16/36 = 9/36), every turn before it neither (16/36), so
    /// 9/36 / (1 - 16/36) = 9/20 and a 1 is seen with 11/20.
    const BY_HAND: [f64; 6] = [
        11.0 / 20.0,
        11.0 / 36.0,
        36.0 / 11.0,
        11.0 / 36.0,
        275.0 / 1296.0,
        625.0 / 1296.0,
    ];

    #[test]
    fn the_chain_solved_gives_the_law_by_hand() {
        let model = sixes();
        let names: Vec<&str> = model.metrics().iter().map(|m| m.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "p_one",
                "p_first_one",
                "mean_turns",
                "turns=1",
                "turns=2",
                "turns>2"
            ]
        );
        let e = model.exact().unwrap();
        for ((got, want), name) in e.iter().zip(BY_HAND).zip(names) {
            assert!((got - want).abs() < 1e-12, "{name}: {got} vs {want}");
        }
    }

    /// The reference sampler, the round-law walk and a face table (of
    /// six dice: a third of the trials roll past it and replay) against
    /// the law by hand at fixed seeds: exact binomial tests for the
    /// probabilities, a z-test for the mean turns with their sample
    /// variance, Bonferroni over the 18 at a family-wise 1e-6.
    #[test]
    fn every_sampler_follows_the_law_by_hand() {
        let n = 100_000u64;
        let alpha = 1e-6 / 18.0;
        let model = sixes();
        // a trial is past six dice with (25/36)^3: too often for the engine
        assert_eq!(model.sampler(), Sampler::RoundLaws);
        let table = FaceTable::build_allowing(|d| model.ending(d), 1.0).unwrap();
        assert_eq!(table.size(), 6u64.pow(6));
        for k in 0..3u64 {
            let mut r = BatchedRoller::new(23, &[k]);
            let mut t = Tally::new(6);
            match k {
                0 => model.run_trials(&mut r, n, &mut t),
                1 => model.run_round_laws(&mut r, n, &mut t),
                _ => model.run_faces(&table, &mut r, n, &mut t),
            }
            assert_eq!(t.trials(), n);
            for (i, want) in BY_HAND.iter().enumerate() {
                let p = if i == 2 {
                    let mean = t.sum(i) as f64 / n as f64;
                    let var = t.sum_sq(i) as f64 / n as f64 - mean * mean;
                    mean_p(mean, var, n, *want, 0.0)
                } else {
                    binomial_exact_p(t.sum(i), n, *want)
                };
                assert!(p > alpha, "sampler {k}, metric {i}: p = {p:e}");
            }
        }
    }

    /// A round law read for a state: from the start, the end of one turn
    /// (before `end_round`) by hand: a 6 and a 1 (2/36), a 6 without a 1
    /// (9/36), a 1 without a 6 (9/36), neither (16/36).
    #[test]
    fn a_rounds_law_is_the_turn_by_hand() {
        let model = sixes();
        let mut law = model.round_law(&(false, false, false)).unwrap();
        law.sort_by_key(|x| x.0);
        let want = [
            ((false, false, false), 16.0 / 36.0),
            ((false, true, true), 9.0 / 36.0),
            ((true, false, false), 9.0 / 36.0),
            ((true, true, true), 2.0 / 36.0),
        ];
        assert_eq!(law.len(), want.len());
        for ((s, p), (ws, wp)) in law.iter().zip(want) {
            assert_eq!(*s, ws);
            assert!((p - wp).abs() < 1e-15, "{s:?}: {p} vs {wp}");
        }
    }
}
