//! The `bottle` scenario: a Bottle Test ("Taking Bottle Tests and Bottlin’
//! Out") and the Scrap Counters a Mob that Bottles Out keeps ("Scrap
//! Counters and Bottlin’ Out"), with the teef each kept counter brings
//! ("Scrap Counters and Income"): the rule ([`Bottle`]), its declaration,
//! parameters ([`BottleParams`]) and builder.

use super::tables::leadership_test;
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::step_model::{Mechanic, StepModel};
use crate::systems::{
    MetricDecl, MetricList, Model, Opt, ParamError, ParamGroup, Params, Refusal, Scenario,
};

/// The seed's sections this scenario reads.
const BOTTLE: &str = "Taking Bottle Tests and Bottlin’ Out";
/// See [`BOTTLE`].
const SCRAP: &str = "Scrap Counters and Bottlin’ Out";

/// The `bottle` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const BOTTLE_SCENARIO: Scenario = Scenario {
    name: "bottle",
    about: "A Bottle Test, and the Scrap Counters (and teef) a Mob that Bottles Out keeps",
    seed_section: BOTTLE,
    params: BottleParams::decls,
    metrics: || BOTTLE_METRICS.to_vec(),
    build: build_bottle,
    variants: &[],
    test_points: &[
        &[
            ("leadership", "7"),
            ("carriers", "2"),
            ("carrier_leadership", "7"),
            ("aboard", "2"),
        ],
        &[
            ("voluntary", "true"),
            ("carriers", "1"),
            ("carrier_leadership", "6"),
            ("aboard", "3"),
            ("models", "8"),
            ("casualties", "2"),
        ],
        // 1 casualty in 8 (12.5%): below 25%, no test
        &[
            ("leadership", "8"),
            ("aboard", "1"),
            ("models", "8"),
            ("casualties", "1"),
        ],
    ],
    refusals: &[
        Refusal {
            what: "a test with no Leadership to test",
            point: 0,
            set: &[],
            unset: &["leadership"],
            field: "leadership",
            words: &["missing", "Leadership"],
        },
        Refusal {
            what: "carriers with no Leadership",
            point: 0,
            set: &[],
            unset: &["carrier_leadership"],
            field: "carrier_leadership",
            words: &["missing", "Leadership"],
        },
        Refusal {
            what: "more casualties than models",
            point: 1,
            set: &[("casualties", "9")],
            unset: &[],
            field: "casualties",
            words: &["more than", "models"],
        },
        Refusal {
            what: "casualties without the Mob's total",
            point: 1,
            set: &[],
            unset: &["models"],
            field: "models",
            words: &["missing"],
        },
        Refusal {
            what: "Bottling Out by choice before Bottle Tests are triggered",
            point: 1,
            set: &[("casualties", "1")],
            unset: &[],
            field: "voluntary",
            words: &["triggered", "25%"],
        },
    ],
    naive: crate::systems::gce::naive::BOTTLE,
};

crate::param_struct! {
    /// Parameters of the bottle scenario.
    pub struct BottleParams {
        leadership: Opt<i64> = int(1, 10)
            .about("Leadership tested: the leader's, or the highest of the Warriors who are not casualties")
            .seed(BOTTLE),
        voluntary: bool = flag()
            .about("the Mob chooses to Bottle Out instead of testing")
            .seed(BOTTLE),
        models: Opt<i64> = int(1, 200)
            .about("Models in the Mob's total (each Warrior and each Vehicle one); absent: the test is due")
            .seed("When to Take a Bottle Test")
            .needs_any("casualties", "2"),
        casualties: Opt<i64> = int(0, 200)
            .about("casualties among them (Down, Out of Action, Immobilised, Destroyed, off the board)")
            .seed("When to Take a Bottle Test")
            .needs_any("models", "8"),
        threshold: i64 = int(1, 100)
            .default("25")
            .about("casualty percentage that triggers Bottle Tests (25% unless the scenario says)")
            .seed(BOTTLE),
        carriers: i64 = int(0, 20)
            .default("0")
            .about("Warriors carrying a Scrap Counter (each a Leadership Test to keep it)")
            .seed(SCRAP),
        carrier_leadership: Opt<i64> = int(1, 10)
            .about("the carriers' Leadership")
            .seed(SCRAP),
        aboard: i64 = int(0, 20)
            .default("0")
            .about("Scrap Counters onboard Vehicles (each kept on a 2+)")
            .seed(SCRAP),
    }
}

fn build_bottle(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = BottleParams::read(p)?;
    let triggered = match (p.models.value, p.casualties.value) {
        (None, None) => true,
        (Some(_), None) => p.casualties.need().map(|_| true)?,
        (None, Some(_)) => p.models.need().map(|_| true)?,
        (Some(models), Some(casualties)) if casualties > models => {
            return Err(ParamError::new(
                p.casualties.name(),
                format!("{casualties} casualties is more than the {models} models of the Mob"),
            ));
        }
        // "25% or more casualties of the total of your Mob"
        (Some(models), Some(casualties)) => 100 * casualties >= p.threshold * models,
    };
    let test = if !triggered {
        if p.voluntary {
            return Err(ParamError::new(
                "voluntary",
                format!(
                    "a Mob may Bottle Out by choice only once Bottle Tests are triggered ({}% or more casualties)",
                    p.threshold
                ),
            ));
        }
        BottleTest::NotDue
    } else if p.voluntary {
        BottleTest::Chosen
    } else {
        BottleTest::Leadership(p.leadership.need()? as u32)
    };
    let carrier_leadership = if p.carriers > 0 {
        p.carrier_leadership.need()? as u32
    } else {
        0
    };
    let b = Bottle {
        test,
        carriers: p.carriers as u8,
        carrier_leadership,
        aboard: p.aboard as u8,
    };
    Ok(Box::new(StepModel::new(b.into_rule())))
}

/// Whether and how the Mob Bottles Out at the start of its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BottleTest {
    /// Below the threshold ("If your Mob has the requisite percentage or
    /// more casualties when you start your turn"): no test, it fights on.
    NotDue,
    /// "you can either choose to Bottle Out or take a Bottle Test".
    Chosen,
    /// "a Leadership Test based on your leader’s Leadership (so roll 2D6 -
    /// a score equal or under their characteristic is a pass) ... If not,
    /// your Mob loses this game": the Leadership tested.
    Leadership(u32),
}

/// A Bottle Test and the Scrap Counters at stake. "Scrap Counters and
/// Bottlin’ Out": "Each Warrior carrying a Scrap Counter must pass a
/// Leadership Test to keep it. For each Scrap Counter onboard a Vehicle
/// roll a D6 - on a 2+ the Mob keeps it." "Scrap Counters and Income": "For
/// each counter a Mob manages to keep add D6 teef to their income".
///
/// The counters' dice are independent of the Bottle Test's, so the rule
/// rolls them every trial: what it keeps then reads "if it Bottles Out"
/// without dividing by the chance it does, and `mean_dropped` (counters
/// lost this turn) counts them only when it does.
#[derive(Clone, Debug)]
pub struct Bottle {
    /// The test.
    pub test: BottleTest,
    /// Warriors carrying a Scrap Counter.
    pub carriers: u8,
    /// Their Leadership.
    pub carrier_leadership: u32,
    /// Scrap Counters onboard Vehicles.
    pub aboard: u8,
}

/// A Bottle Test's outcome.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BottleState {
    bottled: bool,
    kept: u8,
    teef: u16,
}

/// Every metric of the bottle scenario.
pub const BOTTLE_METRICS: [MetricDecl; 6] = [
    MetricDecl::probability(
        "p_bottles_out",
        "P(Bottles Out)",
        "P(the Mob Bottles Out: fails its Bottle Test, or chose to)",
    ),
    MetricDecl::mean(
        "mean_kept",
        "mean Scrap Counters kept",
        "expected Scrap Counters kept if it Bottles Out",
    ),
    MetricDecl::probability(
        "p_keeps_all",
        "P(keeps every Scrap Counter)",
        "P(it keeps every Scrap Counter if it Bottles Out)",
    ),
    MetricDecl::probability(
        "p_keeps_none",
        "P(keeps no Scrap Counter)",
        "P(it keeps no Scrap Counter if it Bottles Out)",
    ),
    MetricDecl::mean(
        "mean_teef",
        "mean teef from Scrap Counters kept",
        "expected teef (D6 a counter kept) if it Bottles Out",
    ),
    MetricDecl::mean(
        "mean_dropped",
        "mean Scrap Counters dropped this turn",
        "expected Scrap Counters lost this turn (none if it holds)",
    ),
];

/// The chance a test on dice passes, from every roll of its dice.
fn pass_chance(test: impl FnMut(&mut crate::dice::Replay) -> bool) -> f64 {
    crate::dice::enumerate(64, test)
        .expect("a test of two dice")
        .iter()
        .filter(|(pass, _)| *pass)
        .map(|(_, p)| p)
        .sum()
}

/// How many of `n` independent tests, each passing with chance `p`, pass.
fn count_law(n: u8, p: f64) -> Vec<(u8, f64)> {
    (0..=n)
        .map(|k| {
            let pk = crate::dice::binomial_pmf(u64::from(n), u64::from(k), p);
            (k, pk)
        })
        .filter(|(_, pk)| *pk > 0.0)
        .collect()
}

/// The total of `n` D6 (the teef of `n` counters kept).
fn d6_sum_law(n: u8) -> Vec<(u16, f64)> {
    let mut law = vec![1.0];
    for _ in 0..n {
        let mut next = vec![0.0; law.len() + 6];
        for (total, p) in law.iter().enumerate() {
            for face in 1..=6 {
                next[total + face] += p / 6.0;
            }
        }
        law = next;
    }
    law.into_iter()
        .enumerate()
        .filter(|(_, p)| *p > 0.0)
        .map(|(t, p)| (t as u16, p))
        .collect()
}

/// The bottle rule with its metric handles.
pub struct BottleRule {
    bottle: Bottle,
    list: MetricList,
    /// Handles in the order of [`BOTTLE_METRICS`].
    m: [Metric; 6],
}

impl Bottle {
    /// The rule with its metric handles.
    pub fn into_rule(self) -> BottleRule {
        let mut list = MetricList::new();
        let m = BOTTLE_METRICS.map(|d| list.add(&d));
        BottleRule {
            bottle: self,
            list,
            m,
        }
    }

    fn counters(&self) -> u8 {
        self.carriers + self.aboard
    }
}

impl Mechanic for BottleRule {
    type State = BottleState;

    fn start(&self) -> BottleState {
        BottleState {
            bottled: false,
            kept: 0,
            teef: 0,
        }
    }

    /// The Bottle Test; the carriers' tests; the counters aboard; the teef
    /// of the counters kept. Each count is one draw: the sampler rolls
    /// every die, the exact evaluator branches on the count's law.
    fn steps(&self) -> usize {
        4
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut BottleState) {
        let b = &self.bottle;
        match i {
            0 => {
                s.bottled = match b.test {
                    BottleTest::NotDue => false,
                    BottleTest::Chosen => true,
                    BottleTest::Leadership(ld) => !leadership_test(dice, ld),
                }
            }
            1 => {
                let ld = b.carrier_leadership;
                s.kept += dice.known(
                    || count_law(b.carriers, pass_chance(|r| leadership_test(r, ld))),
                    |d| {
                        (0..b.carriers)
                            .map(|_| u8::from(leadership_test(d, ld)))
                            .sum()
                    },
                );
            }
            2 => {
                s.kept += dice.known(
                    || count_law(b.aboard, pass_chance(|r| r.d6() >= 2)),
                    |d| (0..b.aboard).map(|_| u8::from(d.d6() >= 2)).sum(),
                );
            }
            _ => {
                let kept = s.kept;
                s.teef = dice.known(
                    || d6_sum_law(kept),
                    |d| (0..kept).map(|_| d.d6() as u16).sum(),
                );
            }
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &BottleState, sink: &mut impl MetricSink) {
        let [bottles, kept, all, none, teef, dropped] = self.m;
        let counters = u64::from(self.bottle.counters());
        let k = u64::from(s.kept);
        sink.record(bottles, u64::from(s.bottled));
        sink.record(kept, k);
        sink.record(all, u64::from(k == counters));
        sink.record(none, u64::from(k == 0));
        sink.record(teef, u64::from(s.teef));
        sink.record(dropped, if s.bottled { counters - k } else { 0 });
    }
}
