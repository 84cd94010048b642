// A data set's items as stored (`datasets.items_json`): an array of objects, as PUT /data checks
// them (datasets.ts). Read by the set's reads, its revisions and its history.
import { Type } from "@sinclair/typebox";
import { AnyObject, jsonColumn } from "../store/json-column.ts";

export const DATASET_ITEMS = jsonColumn("datasets.items_json", Type.Array(AnyObject));
