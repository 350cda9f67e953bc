//! Hit allocation between a Hero and his men: one D6 an attack, a 6 at the
//! Hero (the roll `squad_under_fire` makes too); and the `hit_allocation`
//! scenario that counts them.

use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::step_model::Mechanic;
use crate::systems::{MetricDecl, MetricList, Model, ParamError, ParamGroup, Params};
use crate::systems::{Refusal, Scenario};

/// The `hit_allocation` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const HIT_ALLOCATION_SCENARIO: Scenario = Scenario {
    name: "hit_allocation",
    about: "one D6 per attack into a squad with a Hero: a 6 goes to the Hero",
    seed_section: "UNIT COHESION (allocating casualties in ranged combat)",
    params: AllocationParams::decls,
    metrics: || METRICS.to_vec(),
    build,
    variants: &[],
    test_points: &[&[("attacks", "12")]],
    refusals: &[Refusal {
        what: "no attacks",
        point: 0,
        set: &[("attacks", "0")],
        unset: &[],
        field: "attacks",
        words: &["0 is impossible"],
    }],
    naive: crate::systems::skirmish20::naive::HIT_ALLOCATION,
};

/// "If there is an "Officer" or other "Hero" character present alongside
/// common troopers roll 1D6 for each attack, on a roll of 6 the attack goes
/// against the Hero character otherwise one or more of the common troopers."
pub fn at_hero(d6: u32) -> bool {
    d6 == 6
}

/// Every metric of the hit allocation scenario.
pub const METRICS: [MetricDecl; 3] = [
    MetricDecl::mean(
        "mean_at_hero",
        "mean attacks at the Hero",
        "expected attacks directed at the Hero",
    ),
    MetricDecl::probability(
        "p_hero_attacked",
        "P(Hero attacked)",
        "P(at least one attack directed at the Hero)",
    ),
    MetricDecl::probability(
        "at_hero={k}",
        "P({k} at the Hero)",
        "P(exactly k attacks directed at the Hero)",
    ),
];

/// Allocation of `attacks` attacks (one D6 each).
pub struct AllocationRule {
    attacks: u32,
    list: MetricList,
    m: [Metric; 2],
    each: Vec<Metric>,
}

impl AllocationRule {
    /// The rule with its metric handles.
    pub fn new(attacks: u32) -> Self {
        let mut list = MetricList::new();
        let m = [0, 1].map(|i| list.add(&METRICS[i]));
        let each = list.family(&METRICS[2], 0..=attacks);
        AllocationRule {
            attacks,
            list,
            m,
            each,
        }
    }
}

impl Mechanic for AllocationRule {
    type State = u32;

    fn start(&self) -> u32 {
        0
    }

    fn steps(&self) -> usize {
        self.attacks as usize
    }

    fn step<R: Roller>(&self, _i: usize, dice: &mut R, n: &mut u32) {
        *n += u32::from(at_hero(dice.d6()));
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, n: &u32, sink: &mut impl MetricSink) {
        sink.record(self.m[0], u64::from(*n));
        sink.record(self.m[1], u64::from(*n > 0));
        sink.record(self.each[*n as usize], 1);
    }
}

crate::param_struct! {
    /// Parameters of the hit allocation scenario.
    pub struct AllocationParams {
        attacks: i64 = int(1, 60)
            .required()
            .about("attacks into a squad with a Hero (one D6 each)")
            .seed("UNIT COHESION"),
    }
}

/// Builds the model.
pub fn build(p: &Params, _v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = AllocationParams::read(p)?;
    Ok(Box::new(crate::engine::stages::FacesModel::new(
        AllocationRule::new(p.attacks as u32),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seeds_twelve_dice_send_three_at_the_sergeant() {
        // "Roll 12D6 and score 1,2,2,3,3,3,4,5,5,6,6,6 Three of the shots
        // have been directed at the saergent and 9 at his men."
        let rolls = [1, 2, 2, 3, 3, 3, 4, 5, 5, 6, 6, 6];
        let at_him = rolls.iter().filter(|&&r| at_hero(r)).count();
        assert_eq!((at_him, rolls.len() - at_him), (3, 9));
    }
}
