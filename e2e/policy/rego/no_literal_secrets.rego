# No `secret` argument (resource, data source or provider, in any module) is a literal in the configuration.
package tfwire.no_literal_secrets

deny contains msg if {
	walk(input.configuration, [path, expr])
	count(path) >= 2
	path[count(path) - 1] == "secret"
	path[count(path) - 2] == "expressions"
	is_object(expr)
	"constant_value" in object.keys(expr)
	msg := sprintf("configuration %s: secret is a literal", [concat("/", [sprintf("%v", [p]) | some p in path])])
}
