//! The registry and parameters from outside (issue 28, item 7): how a
//! value's text is read, names checked with a suggestion, values held to
//! their declared range, presets filled in and overridden, and a build
//! refused with the field named.

use krunch::systems::{self, ParamValue, Params};

fn given(pairs: &[(&str, &str)]) -> Params {
    let mut p = Params::new();
    for (k, v) in pairs {
        p.set(*k, ParamValue::from_text(v));
    }
    p
}

#[test]
fn a_value_text_reads_as_int_real_flag_or_word() {
    assert_eq!(ParamValue::from_text("3"), ParamValue::Int(3));
    assert_eq!(ParamValue::from_text("-2"), ParamValue::Int(-2));
    assert_eq!(ParamValue::from_text("3.5"), ParamValue::Float(3.5));
    assert_eq!(ParamValue::from_text("true"), ParamValue::Bool(true));
    assert_eq!(ParamValue::from_text("4+"), ParamValue::Str("4+".into()));
    assert_eq!(
        ParamValue::from_text("shoota"),
        ParamValue::Str("shoota".into())
    );
    // later settings override earlier ones
    let mut p = given(&[("leadership", "7")]);
    p.set("leadership", ParamValue::Int(9));
    assert_eq!(p.given("leadership"), Some(&ParamValue::Int(9)));
    assert_eq!(p.remove("leadership"), Some(ParamValue::Int(9)));
    assert!(!p.has("leadership"));
}

#[test]
fn unknown_names_are_refused_with_a_suggestion() {
    let e = systems::rule_set("bgf").unwrap_err();
    assert_eq!(e.field, "system");
    assert!(e.message.contains("did you mean 'bfg'"), "{}", e.message);
    let bfg = systems::rule_set("bfg").unwrap();
    let e = bfg.scenario("warp_rif").unwrap_err();
    assert!(
        e.message.contains("did you mean 'warp_rift'"),
        "{}",
        e.message
    );
    let e = systems::build(
        "bfg",
        "warp_rift",
        &given(&[("leadershp", "8")]),
        &Params::new(),
    )
    .err()
    .unwrap();
    assert_eq!(e.field, "leadershp");
    assert!(
        e.message.contains("did you mean 'leadership'"),
        "{}",
        e.message
    );
}

#[test]
fn values_are_held_to_their_declared_range() {
    // "leadership: whole number 1..12"
    for bad in ["0", "13", "seven"] {
        let e = systems::build(
            "bfg",
            "warp_rift",
            &given(&[("leadership", bad)]),
            &Params::new(),
        )
        .err()
        .unwrap_or_else(|| panic!("leadership = {bad} was taken"));
        assert_eq!(e.field, "leadership", "{bad}: {}", e.message);
    }
    for ok in ["1", "12"] {
        assert!(
            systems::build(
                "bfg",
                "warp_rift",
                &given(&[("leadership", ok)]),
                &Params::new()
            )
            .is_ok(),
            "{ok}"
        );
    }
    // a required parameter left out is named
    let e = systems::build("bfg", "warp_rift", &Params::new(), &Params::new())
        .err()
        .unwrap();
    assert!(e.message.contains("leadership"), "{}", e.message);
    // an unknown variant value is refused
    let e = systems::build(
        "gce",
        "grenade",
        &given(&[("bs", "3"), ("user_strength", "3"), ("range", "6")]),
        &given(&[("overwatch", "sideways")]),
    )
    .err()
    .unwrap();
    assert_eq!(e.field, "overwatch", "{}", e.message);
}

/// A preset fills in the seed's numbers, and a value given beside it wins:
/// the Agrippa (8 starting damage, "armour 6 on the front") ramming the
/// Unclean at Ld 8 deals 8 dice at 5+; with the Unclean's armour given as 6
/// it deals 8 dice at 6+.
#[test]
fn presets_fill_in_and_given_values_override() {
    let exact = |extra: &[(&str, &str)]| {
        let mut pairs = vec![
            ("rammer", "agrippa"),
            ("target", "unclean"),
            ("rammer_leadership", "8"),
        ];
        pairs.extend_from_slice(extra);
        let m = systems::build("bfg", "ram", &given(&pairs), &Params::new()).unwrap();
        let names: Vec<String> = m.metrics().iter().map(|d| d.name.clone()).collect();
        let v = m.exact().unwrap();
        v[names.iter().position(|n| n == "mean_damage_dealt").unwrap()]
    };
    let pass = 26.0 / 36.0;
    assert!((exact(&[]) - pass * 8.0 / 3.0).abs() < 1e-12);
    assert!((exact(&[("target_armour", "6")]) - pass * 8.0 / 6.0).abs() < 1e-12);
    // an unknown preset is refused, naming the field
    let e = systems::build(
        "bfg",
        "ram",
        &given(&[("rammer", "titanic"), ("rammer_leadership", "8")]),
        &Params::new(),
    )
    .err()
    .unwrap();
    assert_eq!(e.field, "rammer", "{}", e.message);
}
