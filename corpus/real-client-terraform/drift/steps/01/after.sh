# Change things outside OpenTofu: edit one record, delete another and the local file.
printf '{"value":"changed outside","tags":{"a":"2","b":"new"}}\n' > store/changed.json
rm store/deleted.json out/drift.txt
