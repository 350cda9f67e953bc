//! The `grenade` scenario: its declaration, parameters ([`GrenadeParams`])
//! and builder, beside the rule it builds ([`super::Grenade`], in
//! `hazards.rs` with the other hazards' rules). Each GCE scenario sits in
//! the folder of its mechanic, one module each.

use super::{GRENADE_METRICS, Grenade, throw_range};
use crate::engine::step_model::StepModel;
use crate::systems::gce::target::{HitModifiers, TO_HIT, overwatch_bonus};
use crate::systems::gce::weapon::Ammo;
use crate::systems::{Model, Opt, ParamError, ParamGroup, Params, Refusal, Scenario};

/// The `grenade` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const GRENADE_SCENARIO: Scenario = Scenario {
    name: "grenade",
    about: "a thrown grenade: on target, or where it scatters (duds, Unreliable Explosives)",
    seed_section: "Grenades and Stikkbombz; Throw Table; Scattering Grenades; Unreliable Explosives",
    params: GrenadeParams::decls,
    metrics: || GRENADE_METRICS.to_vec(),
    build: build_grenade,
    variants: &["overwatch"],
    test_points: &[
        &[
            ("bs", "3"),
            ("user_strength", "3"),
            ("range", "6"),
            ("ammo", "4+"),
        ],
        &[("bs", "2"), ("user_strength", "2"), ("range", "7")],
    ],
    refusals: &[Refusal {
        what: "an Ammo Roll of 7+",
        point: 0,
        set: &[("ammo", "7+")],
        unset: &[],
        field: "ammo",
        words: &["is not an Ammo Roll (2+ to 6+)"],
    }],
    naive: crate::systems::gce::naive::GRENADE,
};

crate::param_struct! {
    /// Parameters of the grenade scenario.
    pub struct GrenadeParams {
        bs: i64 = int(0, 10)
            .required()
            .about("the thrower's Ballistic Skill")
            .seed(TO_HIT),
        user_strength: i64 = int(1, 10)
            .required()
            .about("the thrower's Strength, for the throw range")
            .seed("Throw Table"),
        range: f64 = real(0.0, 1000.0)
            .required()
            .about("inches to the target")
            .seed("Throw Table"),
        ammo: Opt<String> = text("4+")
            .about("the grenade's Ammo Roll (2+ to 6+), if it has one")
            .seed("Ammo Rolls"),
        ..hit: HitModifiers,
    }
}

fn build_grenade(p: &Params, variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = GrenadeParams::read(p)?;
    let bonus = overwatch_bonus(variants)?;
    let strength = p.user_strength as u8;
    let ammo = match &p.ammo.value {
        None => None,
        Some(w) => match Ammo::parse(w) {
            Ok(Ammo::Score(a)) => Some(a),
            _ => {
                return Err(ParamError::new(
                    p.ammo.name(),
                    format!("'{w}' is not an Ammo Roll (2+ to 6+)"),
                ));
            }
        },
    };
    let g = Grenade {
        bs: p.bs as i32,
        hit_modifier: p.hit.total(bonus),
        in_range: p.range <= f64::from(throw_range(strength)),
        ammo,
    };
    Ok(Box::new(StepModel::new(g.into_rule())))
}
