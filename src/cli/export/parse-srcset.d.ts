// parse-srcset (the parser sanitize-html uses) ships no types: what svc export-static reads of it.
declare module "parse-srcset" {
  interface Candidate {
    url: string;
    w?: number;
    h?: number;
    d?: number;
  }
  export default function parseSrcset(value: string): Candidate[];
}
