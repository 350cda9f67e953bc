//! The `terror` scenario: a warrior that starts its Movement within 8" of
//! an opponent that causes Terror (Psychology, "Movement around opponents
//! that cause Terror"), with Frenzy's calm-down test first ("Frenzy"): the
//! rule ([`Terror`]) with its declaration, parameters ([`TerrorParams`])
//! and builder.

use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::step_model::{Mechanic, StepModel};
use crate::systems::gce::tables::leadership_test;
use crate::systems::{
    MetricDecl, MetricList, Model, ParamError, ParamGroup, Params, Refusal, Scenario,
};

/// The `terror` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const TERROR_SCENARIO: Scenario = Scenario {
    name: "terror",
    about: "Within 8\" of a Terror-causing opponent: a Leadership test, else flee 2D6\" (Frenzy's calm-down test first)",
    seed_section: "Movement around opponents that cause Terror",
    params: TerrorParams::decls,
    metrics: terror_metric_catalog,
    build: build_terror,
    variants: &[],
    test_points: &[
        // an Ork Boy (Ld 7, M4)
        &[("leadership", "7"), ("movement", "4")],
        // a Frenzied warrior (Ld 8, M4) its player tries to calm down,
        // Hated enemies in sight
        &[
            ("leadership", "8"),
            ("movement", "4"),
            ("frenzy", "true"),
            ("calm_down", "true"),
            ("hated_in_sight", "true"),
        ],
        // a Stupid Grot (Ld 5, M4): passes automatically
        &[("leadership", "5"), ("movement", "4"), ("stupid", "true")],
    ],
    refusals: &[
        Refusal {
            what: "a calm-down test for a warrior that is not Frenzied",
            point: 0,
            set: &[("calm_down", "true")],
            unset: &[],
            field: "calm_down",
            words: &["frenzy"],
        },
        Refusal {
            what: "no Leadership",
            point: 0,
            set: &[],
            unset: &["leadership"],
            field: "leadership",
            words: &["missing"],
        },
    ],
    naive: crate::systems::gce::naive::TERROR,
};

/// The seed's section for the parameters.
const TERROR: &str = "Terror";

crate::param_struct! {
    /// Parameters of the terror scenario.
    pub struct TerrorParams {
        leadership: i64 = int(1, 10)
            .required()
            .about("the warrior's Leadership (2D6 equal or under passes, 12 always fails)")
            .seed(TERROR),
        movement: i64 = int(1, 10)
            .required()
            .about("the warrior's Movement characteristic: a flee of more counts as running")
            .seed(TERROR),
        causes: String = choice(&["nothing", "fear", "terror"])
            .default("nothing")
            .about("the warrior itself causes Fear (Terror is only Fear to it: no flee) or Terror (immune)")
            .seed("Warriors who cause Fear and opponents who cause Terror"),
        stupid: bool = flag()
            .about("the warrior suffers from Stupidity: it automatically passes tests against Fear or Terror")
            .seed("Stupidity and Fear/Terror"),
        frenzy: bool = flag()
            .about("the warrior is Frenzied: it ignores Fear, Terror, Stupidity and Hatred")
            .seed("Frenzy and Fear, Terror, Stupidity, or Hatred"),
        calm_down: bool = flag()
            .about("the Frenzied warrior's player tries to calm it down first (a Leadership test; passed, it is not Frenzied this turn)")
            .seed("Frenzy"),
        hated_in_sight: bool = flag()
            .about("Hated enemies are in Line Of Sight: the Terror test is on Leadership 10 (not while Frenzied, which ignores Hatred)")
            .seed("Leadership and hatred"),
    }
}

fn build_terror(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = TerrorParams::read(p)?;
    if p.calm_down && !p.frenzy {
        return Err(ParamError::new(
            crate::param_name!(TerrorParams.calm_down),
            "only a Frenzied warrior is calmed down: set frenzy = true or drop calm_down",
        ));
    }
    let terror = Terror {
        leadership: p.leadership as u32,
        movement: p.movement as u32,
        immune: p.causes == "terror",
        as_fear: p.causes == "fear",
        stupid: p.stupid,
        frenzy: p.frenzy,
        calm_down: p.calm_down,
        hated_in_sight: p.hated_in_sight,
    };
    Ok(Box::new(StepModel::new(terror.into_rule())))
}

/// "Warriors that start their Movement within 8” of an opponent that
/// causes Terror must immediately take a Leadership Test. If they pass they
/// may move as normal but if they fail they must immediately move 2D6”
/// away! If this move is more than their Movement characteristic they count
/// as running for the purposes of Shooting and similar." Who is spared:
/// "Warriors who cause Fear treat opponents that cause Terror in the same
/// way a normal Warrior would treat an opponent that causes Fear" (no flee);
/// "Warriors who cause Terror are immune to both Fear and Terror";
/// Stupidity: "The Warrior automatically passes Tests against being
/// affected by Fear or Terror"; "Frenzied Warriors ignore Fear, Terror,
/// Stupidity, and Hatred". Frenzy: "If you would like to you can see if
/// your Frenzied Warrior can calm down. If you choose to do this, have the
/// Warrior take a Leadership Test. If they pass they keep their cool for
/// this turn." Hatred: "If there are Hated enemies in Line Of Sight the
/// affected Warrior counts as having Leadership 10."
#[derive(Clone, Debug)]
pub struct Terror {
    /// The warrior's Leadership.
    pub leadership: u32,
    /// Its Movement characteristic.
    pub movement: u32,
    /// It causes Terror itself.
    pub immune: bool,
    /// It causes Fear: Terror is Fear to it.
    pub as_fear: bool,
    /// Stupidity: passes automatically.
    pub stupid: bool,
    /// Frenzied: ignores Terror (and Stupidity and Hatred) unless calmed.
    pub frenzy: bool,
    /// The calm-down test is taken first.
    pub calm_down: bool,
    /// Hated enemies in Line Of Sight: Leadership 10 (unless Frenzied).
    pub hated_in_sight: bool,
}

/// A turn's outcome.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TerrorState {
    calm: bool,
    flees: bool,
    inches: u8,
}

/// Every metric of the terror scenario.
pub const TERROR_METRICS: [MetricDecl; 5] = [
    MetricDecl::probability(
        "p_calm",
        "P(calms down)",
        "P(the Frenzied warrior passes its calm-down test: not Frenzied this turn)",
    ),
    MetricDecl::probability(
        "p_flees",
        "P(flees)",
        "P(fails the Terror test and moves 2D6\" away)",
    ),
    MetricDecl::probability(
        "p_runs",
        "P(flees more than its Movement)",
        "P(the flee is more than its Movement: it counts as running)",
    ),
    MetricDecl::mean(
        "mean_flee",
        "mean inches fled",
        "expected inches fled (0 when it holds)",
    ),
    MetricDecl::probability(
        "flee={k}",
        "P(flees {k}\")",
        "P(flees exactly k inches), k = 2..12",
    ),
];

/// Every metric of the terror scenario.
pub fn terror_metric_catalog() -> Vec<MetricDecl> {
    TERROR_METRICS.to_vec()
}

/// The terror rule with its metric handles.
pub struct TerrorRule {
    terror: Terror,
    list: MetricList,
    calm: Metric,
    flees: Metric,
    runs: Metric,
    mean_flee: Metric,
    /// `flee[k - 2]`: flees exactly `k` inches.
    flee: Vec<Metric>,
}

impl Terror {
    /// The rule with its metric handles.
    pub fn into_rule(self) -> TerrorRule {
        let mut list = MetricList::new();
        let [calm, flees, runs, mean, flee] = &TERROR_METRICS;
        TerrorRule {
            terror: self,
            calm: list.add(calm),
            flees: list.add(flees),
            runs: list.add(runs),
            mean_flee: list.add(mean),
            flee: list.family(flee, 2..=12),
            list,
        }
    }
}

impl Mechanic for TerrorRule {
    type State = TerrorState;

    fn start(&self) -> TerrorState {
        TerrorState {
            calm: false,
            flees: false,
            inches: 0,
        }
    }

    /// The calm-down test, the Terror test, the 2D6" flee.
    fn steps(&self) -> usize {
        3
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut TerrorState) {
        let t = &self.terror;
        match i {
            0 if t.calm_down => s.calm = leadership_test(dice, t.leadership),
            1 => {
                let frenzied = t.frenzy && !s.calm;
                if t.immune || t.as_fear || t.stupid || frenzied {
                    return;
                }
                let leadership = if t.hated_in_sight { 10 } else { t.leadership };
                s.flees = !leadership_test(dice, leadership);
            }
            2 if s.flees => s.inches = (dice.d6() + dice.d6()) as u8,
            _ => {}
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &TerrorState, sink: &mut impl MetricSink) {
        sink.record(self.calm, u64::from(s.calm));
        sink.record(self.flees, u64::from(s.flees));
        sink.record(
            self.runs,
            u64::from(u32::from(s.inches) > self.terror.movement),
        );
        sink.record(self.mean_flee, u64::from(s.inches));
        if s.flees {
            sink.record(self.flee[usize::from(s.inches) - 2], 1);
        }
    }
}
