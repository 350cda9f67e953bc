//! The `hit_and_run` scenario: hit-and-run attacks (assault boats,
//! boarding torpedoes, or a teleport attack, checked for eligibility) and
//! the critical hits they cause. Its parameters, the teleport conditions
//! and its builder; the rule is [`HitAndRun`] in `mechanics.rs`. One
//! module per scenario, named after it, as every BFG scenario but
//! `boarding` (which shares `boarding.rs` with its rule).

use super::mechanics::{HIT_AND_RUN_METRICS, HitAndRun};
use super::ships::{CriticalFlags, Who};
use crate::engine::step_model::StepModel;
use crate::systems::{Model, Opt, ParamError, ParamGroup, Params, Refusal, Scenario};

/// The `hit_and_run` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const HIT_AND_RUN_SCENARIO: Scenario = Scenario {
    name: "hit_and_run",
    about: "hit-and-run attacks: critical hits and their extra damage",
    seed_section: "HIT AND RUN ATTACKS; CRITICAL HITS; Teleport Attacks",
    params: HitAndRunParams::decls,
    metrics: || HIT_AND_RUN_METRICS.to_vec(),
    build: build_hit_and_run,
    variants: &[],
    test_points: &[
        &[("attacks", "3"), ("target_no_lances", "true")],
        &[
            ("attack", "teleport"),
            ("attacker_damage", "6"),
            ("target_damage", "4"),
            ("plus_one_fleet", "true"),
            ("target_escort", "true"),
        ],
    ],
    refusals: &[Refusal {
        what: "more than one teleport attack a turn",
        point: 0,
        set: &[("attack", "teleport")],
        unset: &[],
        field: "attacks",
        words: &["only make one teleport attack each turn"],
    }],
    naive: super::naive::HIT_AND_RUN,
};

/// The target of hit-and-run attacks.
#[derive(Clone, Debug)]
struct Raided;

impl Who for Raided {
    fn who() -> String {
        "the target".into()
    }
}

const HNR: &str = "HIT AND RUN ATTACKS";
const TELEPORT: &str = "Teleport Attacks";

crate::param_struct! {
    /// Parameters of the hit-and-run scenario.
    struct HitAndRunParams {
        attack: String = choice(&["assault_boat", "boarding_torpedo", "teleport"])
            .default("assault_boat")
            .about("how the raid arrives (teleport attacks are checked for eligibility)")
            .seed(HNR),
        attacks: i64 = int(1, 20)
            .default("1")
            .about("attacks made (a teleport attack: one, \"A ship may only make one teleport attack each turn\")")
            .seed("HIT AND RUN ATTACKS; Teleport Attacks"),
        plus_one_fleet: bool = flag()
            .about("+1 to the hit-and-run roll")
            .seed(HNR),
        target_escort: bool = flag()
            .about("the target is an escort: any critical destroys it")
            .seed(HNR),
        target_shields: Opt<i64> = int(0, 10)
            .about("teleport: the target's shields up")
            .seed(TELEPORT),
        range_cm: Opt<f64> = real(0.0, 1000.0)
            .about("teleport: distance to the target")
            .seed(TELEPORT),
        attacker_crippled: bool = flag()
            .about("teleport: the attacker is crippled")
            .seed(TELEPORT),
        attacker_on_special_orders: bool = flag()
            .about("teleport: the attacker is on special orders")
            .seed(TELEPORT),
        attacker_escort_or_defence: bool = flag()
            .about("teleport: the attacker is an escort or defence")
            .seed(TELEPORT),
        attacker_damage: Opt<i64> = int(0, 100)
            .about("teleport: the attacker's damage left")
            .seed(TELEPORT),
        target_damage: Opt<i64> = int(0, 100)
            .about("teleport: the target's damage left")
            .seed(TELEPORT),
        target_criticals: CriticalFlags<Raided> = prefixed("target"),
    }
}

fn build_hit_and_run(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = HitAndRunParams::read(p)?;
    if p.attack == "teleport" {
        p.teleport_allowed()?;
    }
    let h = HitAndRun {
        attacks: p.attacks as u32,
        bonus: u32::from(p.plus_one_fleet),
        applies: p.target_criticals.applies(),
        escort: p.target_escort,
    };
    Ok(Box::new(StepModel::new(h.into_rule())))
}

impl HitAndRunParams {
    /// Teleport Attacks: "against an enemy ship, that has no shields,
    /// within 10cm. Ships on special orders and crippled ships may not
    /// make teleport attacks ... escorts and defences with only one damage
    /// point left cannot ... a ship can't make a teleport attack against a
    /// target with more hits at that point in the battle than it has
    /// itself." "A ship may only make one teleport attack each turn."
    fn teleport_allowed(&self) -> Result<(), ParamError> {
        let p = self;
        let no = |field: &str, why: &str| {
            Err(ParamError::new(field, format!("no teleport attack: {why}")))
        };
        let attacks = p.attacks;
        if attacks > 1 {
            return Err(ParamError::new(
                crate::param_name!(HitAndRunParams.attacks),
                format!(
                    "{attacks} teleport attacks: \"A ship may only make one teleport attack each turn\" (set attacks = 1; ships teleporting together are one run each)"
                ),
            ));
        }
        if p.target_shields.value.unwrap_or(0) > 0 {
            return no(p.target_shields.name(), "the target's shields are up");
        }
        if p.range_cm.value.unwrap_or(0.0) > 10.0 {
            return no(p.range_cm.name(), "the target is beyond 10cm");
        }
        if p.attacker_crippled {
            return no(
                crate::param_name!(HitAndRunParams.attacker_crippled),
                "crippled ships may not make teleport attacks",
            );
        }
        if p.attacker_on_special_orders {
            return no(
                crate::param_name!(HitAndRunParams.attacker_on_special_orders),
                "ships on special orders may not make teleport attacks",
            );
        }
        let mine = p.attacker_damage.need()?;
        if mine <= 1 && p.attacker_escort_or_defence {
            return no(
                p.attacker_damage.name(),
                "escorts and defences with one damage point left cannot teleport",
            );
        }
        let theirs = p.target_damage.need()?;
        if theirs > mine {
            return no(
                p.target_damage.name(),
                "the target has more hits left than the teleporting ship",
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::{seed_text, testing};

    fn hit_and_run(pairs: &[(&str, &str)]) -> Result<Box<dyn Model>, ParamError> {
        testing::build(&super::super::RULES, "hit_and_run", pairs)
    }

    /// Teleport Attacks: "A ship may only make one teleport attack each
    /// turn. For each teleport attack make one hit-and-run attack against
    /// the target ship." One teleport attack is made; two are refused
    /// naming `attacks`; two assault boats are still two attacks.
    #[test]
    fn one_teleport_attack_a_turn() {
        if seed_text::available(seed_text::BFG) {
            let text = seed_text::seed(seed_text::BFG);
            assert!(text.contains("A ship may only make one teleport attack each turn."));
        }
        let ship = [
            ("attack", "teleport"),
            ("attacker_damage", "8"),
            ("target_damage", "6"),
        ];
        assert!(hit_and_run(&ship).is_ok());
        let mut two = ship.to_vec();
        two.push(("attacks", "1"));
        assert!(hit_and_run(&two).is_ok());
        two[3] = ("attacks", "2");
        let e = hit_and_run(&two)
            .err()
            .expect("two teleport attacks refused");
        assert_eq!(e.field, "attacks");
        assert!(e.message.contains("one teleport attack each turn"), "{e}");
        assert!(hit_and_run(&[("attack", "assault_boat"), ("attacks", "2")]).is_ok());
    }
}
