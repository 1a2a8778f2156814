# No sensitive output value is written in clear in planned_values (the show -json document does write them: this
# policy is meant to fail on plans with sensitive outputs). The message says whether the configuration declares
# the output sensitive.
package tfwire.sensitive_outputs

deny contains msg if {
	some name, o in input.planned_values.outputs
	o.sensitive == true
	o.value != null
	msg := sprintf("output %q is sensitive but planned_values shows its value (declared sensitive in configuration: %v)", [name, declared(name)])
}

declared(name) := true if {
	input.configuration.root_module.outputs[name].sensitive == true
} else := false
