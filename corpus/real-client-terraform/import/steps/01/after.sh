# Records made outside OpenTofu, to be imported by the final step.
mkdir -p store
printf '{"value":"made outside","tags":{"origin":"shell"}}\n' > store/imported.json
printf '{"value":"second"}\n' > store/imported-2.json
