# A record made outside the client, to be imported by an import block inside a module in the final step.
mkdir -p store
printf '{"value":"made outside","tags":{"origin":"shell"}}\n' > store/in-module.json
