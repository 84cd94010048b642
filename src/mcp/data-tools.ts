// The data group (docs/mcp.md): write a data set whole (docs/content-model.md).
import { leastOf, segment, without, type Tool } from "./tool.ts";

export const DATA_TOOLS: Tool[] = [
  {
    name: "put_data_set",
    group: "data",
    writes: true,
    least: leastOf("PUT", "/data/:name"),
    description: "Create or replace a data set (a list of objects frames print with data.<name>).",
    input: {
      body: ["put", "/data/{name}"],
      own: { name: { type: "string", description: "the data set's name" } },
      required: ["name", "items"],
    },
    run: ({ rest }, input) =>
      rest({ method: "PUT", path: `/data/${segment(input.name)}`, body: without(input, "name") }),
  },
];
