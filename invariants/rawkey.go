package invariants

// Str reads a required non-empty string as written, with its position:
// for a key whose meaning depends on the code it is checked against (a
// guarded_by lock is a field of the guarded value or a package variable,
// which only the type of the field can tell apart), so that it is not
// parsed as a Go name here.
func (r *RuleDecoder) Str(key string) (string, Pos) {
	v, ok := r.m[key]
	if !ok {
		r.d.errorf(r.rule.value, "%s: %s: missing `%s`", r.inv, r.rule.key.Value, key)
		return "", r.d.pos(r.rule.value)
	}
	s, _ := r.d.nonEmptyStr(v, r.rule.key.Value+"."+key)
	return s, r.d.pos(v.value)
}
