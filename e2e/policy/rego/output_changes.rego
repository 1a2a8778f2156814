# Outputs whose value is known only after apply are reported as warnings (output_changes), with whether the
# configuration declares them sensitive.
package tfwire.output_changes

warn contains msg if {
	some name, oc in input.output_changes
	oc.after_unknown == true
	msg := sprintf("output %q %v: known only after apply (sensitive in configuration: %v)", [name, oc.actions, sensitive(name)])
}

sensitive(name) := true if {
	input.configuration.root_module.outputs[name].sensitive == true
} else := false
