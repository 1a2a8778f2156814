# A root variable the configuration declares sensitive must not be listed with its value in `variables`.
package tfwire.sensitive_variables

deny contains msg if {
	some name, v in input.configuration.root_module.variables
	v.sensitive == true
	value := input.variables[name].value
	msg := sprintf("variable %q is declared sensitive but `variables` holds its value (%d characters)", [name, count(sprintf("%v", [value]))])
}
