//! Necron repair: those destroyed last turn stand back up on a D6 5+ (4+
//! near a Lord or Tomb Spider; the roll `squad_under_fire` makes too); and
//! the `necron_repair` scenario that counts them.

use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::step_model::{Mechanic, StepModel};
use crate::systems::{MetricDecl, MetricList, Model, ParamError, ParamGroup, Params};
use crate::systems::{Refusal, Scenario};

/// The `necron_repair` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const NECRON_REPAIR_SCENARIO: Scenario = Scenario {
    name: "necron_repair",
    about: "Necrons destroyed last turn roll to stand back up (5+, 4+ near a Lord or Tomb Spider)",
    seed_section: "NECRON SPECIAL RULES",
    params: RepairParams::decls,
    metrics: || METRICS.to_vec(),
    build,
    variants: &[],
    test_points: &[
        &[("destroyed", "4"), ("destroyed_on_a_one", "1")],
        &[("destroyed", "3"), ("near_lord_or_tomb_spider", "true")],
    ],
    refusals: &[Refusal {
        what: "more destroyed on a 1 than destroyed",
        point: 0,
        set: &[("destroyed_on_a_one", "5")],
        unset: &[],
        field: "destroyed_on_a_one",
        words: &["out of only 4 destroyed"],
    }],
    naive: crate::systems::skirmish20::naive::NECRON_REPAIR,
};

/// "On a roll of "5,6" they stand back up ... within 12" of a Tomb Spider
/// or a Necron Lord then they can get back up on a roll of 4,5,6."
pub fn repair_target(near_lord: bool) -> u32 {
    if near_lord { 4 } else { 5 }
}

/// Every metric of the Necron repair scenario.
pub const METRICS: [MetricDecl; 3] = [
    MetricDecl::mean(
        "mean_repaired",
        "mean Necrons repaired",
        "expected Necrons standing back up",
    ),
    MetricDecl::probability(
        "p_all_repaired",
        "P(all repaired)",
        "P(every destroyed Necron stands back up)",
    ),
    MetricDecl::probability(
        "repaired={k}",
        "P({k} repaired)",
        "P(exactly k stand back up)",
    ),
];

/// Repair rolls at the start of a turn.
pub struct RepairRule {
    /// Destroyed last turn.
    destroyed: u32,
    /// Of those, destroyed by a D20 roll of 1: "no chance of repairing itself".
    on_a_one: u32,
    near_lord: bool,
    list: MetricList,
    m: [Metric; 2],
    each: Vec<Metric>,
}

impl RepairRule {
    /// The rule with its metric handles.
    pub fn new(destroyed: u32, on_a_one: u32, near_lord: bool) -> Self {
        let mut list = MetricList::new();
        let m = [0, 1].map(|i| list.add(&METRICS[i]));
        let each = list.family(&METRICS[2], 0..=destroyed);
        RepairRule {
            destroyed,
            on_a_one,
            near_lord,
            list,
            m,
            each,
        }
    }
}

impl Mechanic for RepairRule {
    type State = u32;

    fn start(&self) -> u32 {
        0
    }

    fn steps(&self) -> usize {
        (self.destroyed - self.on_a_one) as usize
    }

    fn step<R: Roller>(&self, _i: usize, dice: &mut R, n: &mut u32) {
        *n += u32::from(dice.d6() >= repair_target(self.near_lord));
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, n: &u32, sink: &mut impl MetricSink) {
        sink.record(self.m[0], u64::from(*n));
        sink.record(self.m[1], u64::from(*n == self.destroyed));
        sink.record(self.each[*n as usize], 1);
    }
}

const NECRON: &str = "NECRON SPECIAL RULES";

crate::param_struct! {
    /// Parameters of the Necron repair scenario.
    pub struct RepairParams {
        destroyed: i64 = int(1, 40)
            .required()
            .about("Necrons destroyed last turn")
            .seed(NECRON),
        destroyed_on_a_one: i64 = int(0, 40)
            .default("0")
            .about("of those, destroyed on a D20 roll of 1: no repair")
            .seed(NECRON),
        near_lord_or_tomb_spider: bool = flag()
            .about("within 12\" of a Tomb Spider or Necron Lord: 4+ instead of 5+")
            .seed(NECRON),
    }
}

/// Builds the model.
pub fn build(p: &Params, _v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = RepairParams::read(p)?;
    let destroyed = p.destroyed as u32;
    let on_a_one = p.destroyed_on_a_one as u32;
    if on_a_one > destroyed {
        return Err(ParamError::new(
            crate::param_name!(RepairParams.destroyed_on_a_one),
            format!("{on_a_one} destroyed on a 1 out of only {destroyed} destroyed"),
        ));
    }
    Ok(Box::new(StepModel::new(RepairRule::new(
        destroyed,
        on_a_one,
        p.near_lord_or_tomb_spider,
    ))))
}
