// The route schemas of the submissions API (OpenAPI): a submission as answered, its address.
import { Obj, Type } from "../http/schema.ts";
import { NameParams } from "./schemas.ts";

const Str = Type.String();

export const Submission = Obj({
  id: Type.Integer(),
  form: Str,
  fields: Type.Record(Str, Str, { description: "the declared fields sent, by name, as text" }),
  page: Type.Union(
    [
      Obj({
        id: Type.Integer(),
        path: Type.Union([Str, Type.Null()], { description: "the page's path now; null once it is deleted" }),
      }),
      Type.Null(),
    ],
    { description: "the page the form was sent from; null when not known" },
  ),
  lang: Type.Union([Str, Type.Null()], { description: "the language of the page it was sent from" }),
  created_at: Type.String({ description: "YYYY-MM-DD HH:MM:SS, GMT" }),
  user_agent: Str,
});

export const SubmissionParams = Obj({
  ...NameParams.properties,
  id: Type.String({ description: "the submission's id; another form's or site's is 404 form_submission_not_found" }),
});
