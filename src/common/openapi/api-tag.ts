import { SetMetadata } from '@nestjs/common';

const TAG_METADATA = 'pos-read-api:tag';

/** A tag of the OpenAPI document: the name its operations carry, and what the tag holds. */
export interface ApiTag {
  name: string;
  description: string;
}

/**
 * Declares on a controller the tag its operations carry (their `tag`) and the tag's description,
 * which the document lists in the order the root imports the controllers' modules: a resource's
 * tag lives in its folder, and registering its module registers the tag.
 */
export const ApiTagDescription = (name: string, description: string): ClassDecorator =>
  SetMetadata(TAG_METADATA, { name, description } satisfies ApiTag);

/** The tag a controller class declares, if any. */
export function declaredTag(controller: object): ApiTag | undefined {
  return Reflect.getMetadata(TAG_METADATA, controller) as ApiTag | undefined;
}
