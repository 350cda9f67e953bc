//! Several hits on one figure, each read on the Effect of Hit Chart: duck
//! back, wounded, dead; and the `effect_of_hit` scenario that asks it.

use super::fire::{Figure, Toughness, roll_effect};
use super::shared_params::{EFFECT, ToughnessParams};
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::step_model::{Mechanic, StepModel};
use crate::systems::{MetricDecl, MetricList, Model, ParamError, ParamGroup, Params};
use crate::systems::{Refusal, Scenario};

/// The `effect_of_hit` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const EFFECT_OF_HIT_SCENARIO: Scenario = Scenario {
    name: "effect_of_hit",
    about: "several hits on one figure: duck back, wounded, dead",
    seed_section: "EFFECT OF HIT CHART; EFFECTS OF HIT; SPECIAL SKILLS (Enhanced Nervous system)",
    params: EffectParams::decls,
    metrics: || METRICS.to_vec(),
    build,
    variants: &[],
    test_points: &[
        &[("hits", "2")],
        &[
            ("hits", "3"),
            ("target_kind", "hero"),
            ("target_enhanced_nervous_system", "true"),
        ],
    ],
    refusals: &[Refusal {
        what: "a target that is neither trooper nor hero",
        point: 0,
        set: &[("target_kind", "dragon")],
        unset: &[],
        field: "target_kind",
        words: &["'dragon' is not one of: trooper, hero"],
    }],
    naive: crate::systems::skirmish20::naive::EFFECT_OF_HIT,
};

/// Every metric of the effect-of-hit scenario.
pub const METRICS: [MetricDecl; 4] = [
    MetricDecl::probability("p_dead", "P(dead)", "P(the figure is dead)"),
    MetricDecl::probability("p_wounded", "P(wounded)", "P(alive and wounded)"),
    MetricDecl::probability("p_duck_back", "P(ducks back)", "P(alive and ducked back)"),
    MetricDecl::probability(
        "p_unaffected",
        "P(no effect)",
        "P(alive, not wounded, not ducked back)",
    ),
];

/// `hits` hits on one figure.
pub struct EffectRule {
    /// Hits taken.
    pub hits: u32,
    /// Already wounded before the hits.
    pub wounded: bool,
    /// The kind of figure.
    pub toughness: Toughness,
    list: MetricList,
    m: [Metric; 4],
}

impl EffectRule {
    /// The rule with its metric handles.
    pub fn new(hits: u32, wounded: bool, toughness: Toughness) -> Self {
        let mut list = MetricList::new();
        let m = METRICS.each_ref().map(|d| list.add(d));
        EffectRule {
            hits,
            wounded,
            toughness,
            list,
            m,
        }
    }
}

impl Mechanic for EffectRule {
    type State = Figure;

    fn start(&self) -> Figure {
        Figure {
            wounds: u8::from(self.wounded),
            ..Default::default()
        }
    }

    fn steps(&self) -> usize {
        self.hits as usize
    }

    fn step<R: Roller>(&self, _i: usize, dice: &mut R, f: &mut Figure) {
        if !f.dead {
            let e = roll_effect(dice, self.toughness);
            f.take(e, self.toughness);
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, f: &Figure, sink: &mut impl MetricSink) {
        let [dead, wounded, duck, none] = self.m;
        let w = f.wounded(self.toughness);
        sink.record(dead, u64::from(f.dead));
        sink.record(wounded, u64::from(w));
        sink.record(duck, u64::from(f.ducked && !f.dead));
        sink.record(none, u64::from(!f.dead && !w && !f.ducked));
    }
}

crate::param_struct! {
    /// Parameters of the effect-of-hit scenario.
    pub struct EffectParams {
        hits: i64 = int(1, 10)
            .required()
            .about("hits that penetrated")
            .seed(EFFECT),
        target_wounded: bool = flag()
            .about("the figure is already wounded")
            .seed(EFFECT),
        toughness: ToughnessParams = prefixed("target_"),
    }
}

/// Builds the model.
pub fn build(p: &Params, _v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = EffectParams::read(p)?;
    Ok(Box::new(StepModel::new(EffectRule::new(
        p.hits as u32,
        p.target_wounded,
        p.toughness.toughness(),
    ))))
}
